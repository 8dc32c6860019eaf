# The libraries' targets for the Windows build, from what install/deps.sh
# --windows put in TABBRIDGE_WINDOWS_DEPS (the toolchain file's find root):
# libuv built for mingw, Debian's header-only nlohmann/json, spdlog and fmt.
# The same target names as the Linux build's find_package/pkg-config ones.
find_path(TABBRIDGE_WIN_INCLUDE NAMES uv.h nlohmann/json.hpp spdlog/spdlog.h REQUIRED)
find_library(TABBRIDGE_WIN_LIBUV NAMES uv REQUIRED)
if(NOT EXISTS ${TABBRIDGE_WIN_INCLUDE}/nlohmann/json.hpp OR NOT EXISTS ${TABBRIDGE_WIN_INCLUDE}/spdlog/spdlog.h)
  message(FATAL_ERROR "tabbridge: run install/deps.sh --windows (no headers in ${TABBRIDGE_WIN_INCLUDE})")
endif()

add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
target_include_directories(nlohmann_json::nlohmann_json SYSTEM INTERFACE ${TABBRIDGE_WIN_INCLUDE})

# spdlog and fmt header-only (Debian's spdlog expects an external fmt).
add_library(spdlog::spdlog INTERFACE IMPORTED)
target_include_directories(spdlog::spdlog SYSTEM INTERFACE ${TABBRIDGE_WIN_INCLUDE})
target_compile_definitions(spdlog::spdlog INTERFACE SPDLOG_FMT_EXTERNAL FMT_HEADER_ONLY)

add_library(PkgConfig::LIBUV INTERFACE IMPORTED)
target_include_directories(PkgConfig::LIBUV SYSTEM INTERFACE ${TABBRIDGE_WIN_INCLUDE})
target_link_libraries(PkgConfig::LIBUV INTERFACE ${TABBRIDGE_WIN_LIBUV} ws2_32 iphlpapi userenv ole32 uuid dbghelp)
