# One place for how our own targets are compiled: C++20, warnings as errors,
# no RTTI (LLVM is built without it, and we subclass its classes), and the
# LLVM/Clang include paths as system headers so their warnings stay theirs.
set(AVE_RESOURCE_DIR "${LLVM_LIBRARY_DIR}/clang/${LLVM_VERSION_MAJOR}")
separate_arguments(AVE_LLVM_DEFINITIONS NATIVE_COMMAND "${LLVM_DEFINITIONS}")

function(ave_target_defaults target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror -fno-rtti)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 reports std::string concatenation at -O3 as overlapping memcpy.
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  target_include_directories(${target} SYSTEM PUBLIC ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS})
  target_compile_options(${target} PUBLIC ${AVE_LLVM_DEFINITIONS})
endfunction()

# The Clang AST headers most of our sources include, precompiled once per
# target: a parse of them costs seconds per file, for the compiler and for
# clang-tidy (scripts/tidy.sh), which reads the same precompiled header.
set(AVE_CLANG_PCH_HEADERS
  <clang/AST/ASTContext.h> <clang/AST/Decl.h> <clang/AST/Expr.h> <clang/AST/ExprCXX.h>
  <clang/AST/RecursiveASTVisitor.h> <clang/AST/Attr.h> <clang/Basic/SourceManager.h>
  <llvm/Support/raw_ostream.h> <map> <memory> <optional> <set> <string> <vector>)
function(ave_clang_pch target)
  target_precompile_headers(${target} PRIVATE ${AVE_CLANG_PCH_HEADERS})
endfunction()

# ave_library(name SOURCES ... [DEPS ...] [NO_PCH]) : a library whose public
# headers live in <folder>/include and whose sources are every .cpp beside it.
# NO_PCH: a library that does not read the Clang AST (no precompiled header).
function(ave_library name)
  cmake_parse_arguments(ARG "NO_PCH" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
  ave_target_defaults(${name})
  if(ARG_DEPS)
    target_link_libraries(${name} PUBLIC ${ARG_DEPS})
  endif()
  if(NOT ARG_NO_PCH)
    ave_clang_pch(${name})
  endif()
endfunction()
