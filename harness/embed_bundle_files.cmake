# Writes OUTPUT: a C++ file defining ave::harness::staticBundleFiles() with the
# text of each file listed in FILE_LIST, a ;-list of "source-path|bundle-path|x"
# entries (x: executable in the bundle, else "-"). Run with cmake -P.
file(READ "${FILE_LIST}" FILES)
set(body "")
foreach(entry IN LISTS FILES)
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 source)
  list(GET parts 1 target)
  list(GET parts 2 mode)
  file(READ "${source}" text)
  if(text MATCHES "\\)AVE_EMBED\"")
    message(FATAL_ERROR "${source} contains the embedding delimiter")
  endif()
  if(mode STREQUAL "x")
    set(executable true)
  else()
    set(executable false)
  endif()
  string(APPEND body "      {\"${target}\", R\"AVE_EMBED(${text})AVE_EMBED\", ${executable}},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp" "// Generated from harness/embed_bundle_files.cmake: do not edit.
#include \"ave/harness/BundleGenerator.h\"

namespace ave::harness {

const std::vector<BundleFile> &staticBundleFiles() {
  static const std::vector<BundleFile> files = {
${body}  };
  return files;
}

} // namespace ave::harness
")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.tmp" "${OUTPUT}")
