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

# ave_library(name folder [DEPS ...]) : a library whose public headers live in
# <folder>/include and whose sources are every .cpp beside it.
function(ave_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  if(NOT ARG_SOURCES)
    # A library whose first source file has not been written yet.
    message(WARNING "${name}: no sources yet, target skipped")
    return()
  endif()
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
  ave_target_defaults(${name})
  if(ARG_DEPS)
    target_link_libraries(${name} PUBLIC ${ARG_DEPS})
  endif()
endfunction()
