# CPack runs this (CPACK_PRE_BUILD_SCRIPTS) once the package's files are
# staged: the packaged tabbridge writes the native-messaging manifest into
# every browser's system-wide directory under the staging root, from its
# built-in template (manifests/), with the packaged extension's ID and the
# host where the package puts it. Those files become conffiles.
set(root "${CPACK_TEMPORARY_DIRECTORY}")
set(prefix "${CPACK_PACKAGING_INSTALL_PREFIX}")
set(ENV{TABBRIDGE_EXTENSION_DIR} "")  # the packaged extension, next to the packaged binary
execute_process(
  COMMAND "${root}${prefix}/bin/tabbridge" register --system --root "${root}" --host-path "${prefix}/bin/tabbridge-host"
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "tabbridge register --system failed (${status}): ${out}${err}")
endif()
file(GLOB_RECURSE manifests RELATIVE "${root}" "${root}/etc/*")
if(NOT manifests)
  message(FATAL_ERROR "no system-wide manifests were written under ${root}/etc: ${out}")
endif()
list(SORT manifests)
list(TRANSFORM manifests PREPEND "/")
list(JOIN manifests "\n" conffiles)
file(WRITE "${CPACK_TABBRIDGE_CONFFILES}" "${conffiles}\n")
