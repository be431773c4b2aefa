# Writes a kernel with one construct nested N deep (issue 12, item 3: deep
# input must not crash the tool). Usage: gen_deep.py KIND [N]
import sys
k=sys.argv[1]; n=int(sys.argv[2]) if len(sys.argv)>2 else 5000
if k=='unary': decl="int y = %si; float z = A[i + (y & 0)];"%("~"*n)
elif k=='ternary': decl="float z = "+" : ".join(["i == %d ? x"%j for j in range(n)])+" : x;"
elif k=='assign': decl="int "+",".join("v%d"%j for j in range(n))+"; "+" = ".join("v%d"%j for j in range(n))+" = i; float z = A[v0];"
elif k=='comma': decl="int y = ("+", ".join(["i"]*n)+"); float z = A[y];"
elif k=='intbin': decl="int y = "+" + ".join(["i"]*n)+"; float z = A[y - %d * i + i];"%n
elif k=='chain': decl="int y = i;\n"+"\n".join(["  y = y * N + 1;"]*n)+"\n  float z = A[(y & 0) + i];"
elif k=='call': decl="float z = "+"fminf(x, "*200+"x"+")"*200+";"
print('''#include <ave/annotations.h>
#include <hip/hip_runtime.h>
__global__ void k(const float *A AVE_TAG("A(i < N) = i"), float *B AVE_TAG("B(i < N) = i"), int N) {
  AVE_LAUNCH(block(64) grid(N / 64))
  AVE_ASSUME(N %% 64 == 0)
  int i = blockIdx.x * 64 + threadIdx.x; float x = A[i];
  %s
  B[i] = z;
}''' % decl)
