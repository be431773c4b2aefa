#!/bin/sh
# SIGTERM to `rewrite` while its compile stage runs, with a stand-in nvcc
# that leaves a scratch file in its TMPDIR (as nvcc's tmpxft files), starts
# a child of its own and waits. Afterwards no temporary file or
# folder of the run may be left, and neither the compiler nor its child may
# run on (each compiler runs in a process group the tool stops).
#   interrupt_compile.sh "AVE" FILE WORKDIR
ave=$1 file=$2 dir=$3
mkdir -p "$dir/bin" "$dir/tmp"
cat > "$dir/bin/nvcc" <<EOS
#!/bin/sh
echo scratch > "\${TMPDIR:-/tmp}/tmpxft_stand_in"
sleep 120 &
echo \$! > "$dir/child.pid"
echo \$\$ > "$dir/nvcc.pid"
wait
EOS
chmod +x "$dir/bin/nvcc"
# --no-execute: the execution stage (CPU executor build and run) does not yet
# register its temporaries for cleanup on SIGTERM (it leaves ave-cpu-c++.*
# and ave-equivalence-*.out behind); this test covers the compile stage.
TMPDIR="$dir/tmp" PATH="$dir/bin:$PATH" $ave rewrite "$file" --apply lds-pad --no-execute > /dev/null 2>&1 &
rewrite=$!
i=0
while [ ! -s "$dir/child.pid" ] && [ $i -lt 1200 ]; do
  sleep 0.1
  i=$((i + 1))
done
[ -s "$dir/child.pid" ] || { echo "nvcc never started"; exit 1; }
kill -TERM $rewrite
wait $rewrite
echo "rewrite: $?"
# Gone or a zombie waiting for init: either way, not running.
running() { ps -o stat= -p "$1" 2>/dev/null | grep -qv Z; }
i=0
while { running "$(cat "$dir/nvcc.pid")" || running "$(cat "$dir/child.pid")"; } && [ $i -lt 50 ]; do
  sleep 0.1
  i=$((i + 1))
done
for p in nvcc child; do
  if running "$(cat "$dir/$p.pid")"; then
    echo "$p still running"
    kill "$(cat "$dir/$p.pid")"
  else
    echo "$p stopped"
  fi
done
echo "left in TMPDIR: $(ls -A "$dir/tmp" | wc -l)"
ls -A "$dir/tmp"
