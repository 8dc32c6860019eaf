#include "common/logging.h"

#include <fcntl.h>
#include <sys/stat.h>
#ifndef _WIN32
#include <unistd.h>
#endif

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace tb {

void InitLogging(std::string_view program, std::string_view default_level) {
  std::vector<spdlog::sink_ptr> sinks;
  sinks.push_back(std::make_shared<spdlog::sinks::stderr_sink_st>());
  if (const char* file = std::getenv("TABBRIDGE_LOG_FILE"); file != nullptr && *file != '\0') {
#ifndef _WIN32
    // Logs name pages and calls: the user's alone (0600), also a file an
    // older version made 0644. The sink appends to what this made.
    const int fd = ::open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd >= 0) {
      (void)::fchmod(fd, 0600);
      ::close(fd);
    }
#endif
    // Windows has no modes: the sink opens the file for appending, and a log
    // under %LOCALAPPDATA% is the user's alone by its profile directory's ACL
    // (the user, SYSTEM, the administrators), which new files inherit.
    try {
      sinks.push_back(std::make_shared<spdlog::sinks::basic_file_sink_st>(file));
    } catch (const spdlog::spdlog_ex& e) {
      // Logging must never stop the program; say so on stderr and go on.
      sinks.front()->log(spdlog::details::log_msg(std::string(program), spdlog::level::warn,
                                                  std::string("cannot open log file: ") + e.what()));
    }
  }
  auto logger = std::make_shared<spdlog::logger>(std::string(program), sinks.begin(), sinks.end());
  const char* level = std::getenv("TABBRIDGE_LOG_LEVEL");
  logger->set_level(spdlog::level::from_str(level != nullptr ? level : std::string(default_level)));
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e %n[%P] %l: %v");
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(std::move(logger));
}

}  // namespace tb
