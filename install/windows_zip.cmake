# The Windows package: tabbridge-windows.zip holding tabbridge.exe,
# tabbridge-host.exe, extension/, install.ps1 and uninstall.ps1 at its top
# (install.ps1 copies them to %LOCALAPPDATA%\tabbridge). Needs nothing but
# CMake (its tar writes zip).
#   cmake -DBIN=<build-windows/bin> -DZIP=<out.zip> -P install/windows_zip.cmake
cmake_minimum_required(VERSION 3.25)
get_filename_component(source ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
foreach(exe tabbridge.exe tabbridge-host.exe)
  if(NOT EXISTS ${BIN}/${exe})
    message(FATAL_ERROR "no ${BIN}/${exe}: build the Windows programs first (install/windows.sh)")
  endif()
endforeach()
get_filename_component(zip ${ZIP} ABSOLUTE)
set(stage ${zip}.stage)
file(REMOVE_RECURSE ${stage})
file(MAKE_DIRECTORY ${stage})
file(COPY ${BIN}/tabbridge.exe ${BIN}/tabbridge-host.exe ${source}/install/windows/install.ps1
          ${source}/install/windows/uninstall.ps1 DESTINATION ${stage})
file(COPY ${source}/extension DESTINATION ${stage})
file(REMOVE ${zip})
execute_process(COMMAND ${CMAKE_COMMAND} -E tar cf ${zip} --format=zip tabbridge.exe tabbridge-host.exe install.ps1
                        uninstall.ps1 extension
                WORKING_DIRECTORY ${stage} RESULT_VARIABLE status)
file(REMOVE_RECURSE ${stage})
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cmake -E tar could not write ${zip}")
endif()
message(STATUS "wrote ${zip}")
