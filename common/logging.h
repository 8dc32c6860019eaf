// spdlog set-up shared by both programs. stdout is a protocol channel in both,
// so logs go to stderr and, when TABBRIDGE_LOG_FILE is set, to that file too.
// TABBRIDGE_LOG_LEVEL picks the level (trace, debug, info, warn, error, off).
#pragma once

#include <string_view>

namespace tb {
void InitLogging(std::string_view program, std::string_view default_level);
}
