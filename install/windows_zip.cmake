# The Windows package: tabbridge-windows.zip holding tabbridge.exe,
# tabbridge-host.exe, extension/, install.ps1 and uninstall.ps1 at its top
# (install.ps1 copies them to %LOCALAPPDATA%\tabbridge). The two programs are
# stripped of their symbols and debug sections on the way in (the build's
# own copies keep theirs). Needs CMake (its tar writes zip) and mingw-w64's
# strip.
#   cmake -DBIN=<build-windows/bin> -DZIP=<out.zip> -P install/windows_zip.cmake
cmake_minimum_required(VERSION 3.25)
get_filename_component(source ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
foreach(exe tabbridge.exe tabbridge-host.exe)
  if(NOT EXISTS ${BIN}/${exe})
    message(FATAL_ERROR "no ${BIN}/${exe}: build the Windows programs first (install/windows.sh)")
  endif()
endforeach()
find_program(TABBRIDGE_MINGW_STRIP x86_64-w64-mingw32-strip)
if(NOT TABBRIDGE_MINGW_STRIP)
  message(FATAL_ERROR "no x86_64-w64-mingw32-strip: install binutils-mingw-w64-x86-64 (install/deps.sh --windows-package)")
endif()
get_filename_component(zip ${ZIP} ABSOLUTE)
set(stage ${zip}.stage)
file(REMOVE_RECURSE ${stage})
file(MAKE_DIRECTORY ${stage})
file(COPY ${BIN}/tabbridge.exe ${BIN}/tabbridge-host.exe ${source}/install/windows/install.ps1
          ${source}/install/windows/uninstall.ps1 DESTINATION ${stage})
file(COPY ${source}/extension DESTINATION ${stage})
foreach(exe tabbridge.exe tabbridge-host.exe)
  execute_process(COMMAND ${TABBRIDGE_MINGW_STRIP} --strip-all ${stage}/${exe} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${TABBRIDGE_MINGW_STRIP} could not strip ${exe}")
  endif()
endforeach()
file(REMOVE ${zip})
execute_process(COMMAND ${CMAKE_COMMAND} -E tar cf ${zip} --format=zip tabbridge.exe tabbridge-host.exe install.ps1
                        uninstall.ps1 extension
                WORKING_DIRECTORY ${stage} RESULT_VARIABLE status)
file(REMOVE_RECURSE ${stage})
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cmake -E tar could not write ${zip}")
endif()
message(STATUS "wrote ${zip}")
