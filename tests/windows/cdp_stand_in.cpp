// A stand-in for Chrome on Windows, for launch_pipe_test: started by
// tb::StartBrowser the way Chrome is, it finds its DevTools pipe in
// --remote-debugging-io-pipes=<read>,<write>, prints its arguments (one per
// line, to stdout: the browser's log), reads one NUL-terminated CDP message
// and, by --stand-in=MODE: answers it (answer), never answers (silent), or
// exits with an access violation's code without answering (crash).
#include <windows.h>
// windows.h first: io.h needs its types.
#include <fcntl.h>
#include <io.h>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  HANDLE in = INVALID_HANDLE_VALUE, out = INVALID_HANDLE_VALUE;
  std::string mode = "answer";
  ::_setmode(::_fileno(stdout), _O_BINARY);  // "\n" as is in the log
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    std::printf("arg: %s\n", arg.c_str());
    constexpr std::string_view kPipes = "--remote-debugging-io-pipes=";
    if (arg.starts_with(kPipes)) {
      const std::string handles = arg.substr(kPipes.size());
      const auto comma = handles.find(',');
      in = reinterpret_cast<HANDLE>(std::strtoull(handles.substr(0, comma).c_str(), nullptr, 10));
      out = reinterpret_cast<HANDLE>(std::strtoull(handles.substr(comma + 1).c_str(), nullptr, 10));
    }
    if (arg.starts_with("--stand-in=")) mode = arg.substr(11);
  }
  std::fflush(stdout);
  if (mode == "crash") return static_cast<int>(0xC0000005);
  std::string message;
  char c = 0;
  DWORD n = 0;
  while (::ReadFile(in, &c, 1, &n, nullptr) && n == 1 && c != '\0') message += c;
  std::printf("got: %s\n", message.c_str());
  std::fflush(stdout);
  if (mode == "silent") {
    ::Sleep(INFINITE);
    return 0;
  }
  const std::string reply = std::string("{\"id\":1,\"result\":{\"id\":\"standinextension\"}}") + '\0';
  DWORD written = 0;
  if (!::WriteFile(out, reply.data(), static_cast<DWORD>(reply.size()), &written, nullptr)) return 3;
  return 0;
}
