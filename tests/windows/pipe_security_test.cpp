// The named pipe's security under Wine, for real where Wine runs one user:
// ListSlots sees our pipes, the DACL a host's pipe carries (read back from a
// libuv instance created after it was set), a client of our own user passing
// the real SID checks on both sides; and by injection, what Wine's single
// user cannot show: a pipe served by another SID refused before the hello,
// a client of another SID closed before its first byte is read, a squatted
// slot name skipped.
#include <winsock2.h>  // before windows.h, as uv.h wants it
// clang-format off
#include <windows.h>
// clang-format on

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <uv.h>

#include "common/protocol.h"
#include "common/socket_dir.h"
#include "common/transport.h"
#include "common/utf16_windows.h"
#include "common/uv_util.h"
#include "common/windows_names.h"
#include "common/windows_pipe.h"
#include "common/windows_sid.h"
#include "host/socket_server.h"
#include "mcp_shim/host_link.h"

namespace tb {
namespace {

constexpr const char* kForeignSid = "S-1-5-21-1004336348-1177238915-682003330-4242";

std::string OurSid() {
  auto sid = windows::CurrentUserSid();
  EXPECT_TRUE(sid) << sid.error();
  return sid.value_or("");
}

// A pipe prefix of this test alone.
std::string TestPrefix(const std::string& name) {
  return "\\\\.\\pipe\\tb-pipe-test-" + std::to_string(::GetCurrentProcessId()) + "-" + name;
}

// A raw pipe instance (default security), as a squatter would make one;
// `extra` access as libuv asks for (WRITE_DAC).
HANDLE RawPipe(const std::string& name, DWORD extra = 0) {
  return ::CreateNamedPipeW(Utf16(name).c_str(), PIPE_ACCESS_DUPLEX | extra, PIPE_TYPE_BYTE, PIPE_UNLIMITED_INSTANCES,
                            4096, 4096, 0, nullptr);
}

// Wine says who it is through an ntdll export Windows does not have.
bool UnderWine() { return ::GetProcAddress(::GetModuleHandleW(L"ntdll.dll"), "wine_get_version") != nullptr; }

// The DACL part of an SDDL string ("D:…").
std::string DaclOf(const std::string& sddl) {
  const auto dacl = sddl.find("D:");
  return dacl == std::string::npos ? "" : sddl.substr(dacl);
}

// A host's door with a minimal host behind it: answers every line with a
// result, counts what it was sent and which connections it was given.
class Fixture : public ::testing::Test {
 protected:
  void SetUp() override { uv_loop_init(&loop_); }
  void TearDown() override {
    links_.clear();
    transports_.clear();
    server_.reset();
    uv_run(&loop_, UV_RUN_NOWAIT);
    uv_walk(
        &loop_, [](uv_handle_t* h, void*) { CloseHandle(h); }, nullptr);
    uv_run(&loop_, UV_RUN_DEFAULT);
    uv_loop_close(&loop_);
  }

  std::expected<void, std::string> Serve(const std::string& prefix,
                                         std::optional<windows::PipeSidLookup> client_sid = std::nullopt) {
    server_ = std::make_unique<SocketServer>(&loop_, -1);
    if (client_sid) server_->SetClientSidLookup(*client_sid);
    return server_->Listen(prefix, [this](uv_pipe_t* connection) {
      uv_os_fd_t handle{};
      uv_fileno(reinterpret_cast<uv_handle_t*>(connection), &handle);
      instance_sddl_ = windows::SecurityDescriptorOf(handle);
      auto* stream = reinterpret_cast<uv_stream_t*>(connection);
      auto transport = std::make_unique<Transport>(stream, stream, Framing::kLine, kMaxLineBytes);
      Transport* raw = transport.get();
      raw->Start(
          {.on_message =
               [this, raw](std::string message) {
                 ++messages_;
                 const auto request = Json::parse(message, nullptr, false);
                 raw->Send(
                     Json{{"jsonrpc", "2.0"}, {"id", request.value("id", Json())}, {"result", {{"ok", true}}}}.dump());
               },
           .on_close = [](std::string_view) {}});
      transports_.push_back(std::move(transport));
      ++connections_;
    });
  }

  // Connects a HostLink (the shim's side) and runs the loop until it is done.
  std::expected<std::unique_ptr<HostLink>, HostLink::ConnectError> Connect(const std::string& path,
                                                                           windows::PipeSidLookup server_sid = {}) {
    std::optional<std::expected<std::unique_ptr<HostLink>, HostLink::ConnectError>> outcome;
    HostLink::Connect(
        &loop_, path, {{"client", {{"name", "pipe-test"}, {"version", "0"}}}},
        [&](std::expected<std::unique_ptr<HostLink>, HostLink::ConnectError> link) { outcome = std::move(link); },
        std::move(server_sid));
    RunUntil([&] { return outcome.has_value(); });
    if (!outcome) return std::unexpected(HostLink::ConnectError{"no outcome in time"});
    return std::move(*outcome);
  }

  // Runs the loop until `done` (checked after each turn) or 10 s.
  template <typename Done>
  bool RunUntil(Done done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    Timer tick(&loop_);
    tick.StartRepeating(5, [] {});  // wakes the loop so `done` is checked
    while (!done()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      uv_run(&loop_, UV_RUN_ONCE);
    }
    return true;
  }

  uv_loop_t loop_{};
  std::unique_ptr<SocketServer> server_;
  std::vector<std::unique_ptr<Transport>> transports_;
  std::vector<std::unique_ptr<HostLink>> links_;
  std::expected<std::string, std::string> instance_sddl_ = std::unexpected("no connection");
  int messages_ = 0;
  int connections_ = 0;
};

TEST(ListSlots, FindsOurPipesAndNothingElse) {
  const std::string prefix = TestPrefix("list");
  EXPECT_TRUE(ListSlots(prefix).empty());
  const HANDLE three = RawPipe(SocketPath(prefix, 3));
  const HANDLE other = RawPipe(prefix + "-browser-x");    // not a slot
  const HANDLE longer = RawPipe(prefix + "2-browser-1");  // another prefix that starts the same
  ASSERT_NE(three, INVALID_HANDLE_VALUE);
  EXPECT_EQ(ListSlots(prefix), std::vector<int>{3});
  EXPECT_TRUE(windows::PipeExists(SocketPath(prefix, 3)));
  for (HANDLE h : {three, other, longer}) ::CloseHandle(h);
  EXPECT_TRUE(ListSlots(prefix).empty()) << "no pipe outlives its last handle";
}

// Without TABBRIDGE_SOCKET_DIR: the user's private prefix, the one kept in
// %LOCALAPPDATA%\tabbridge\pipe-prefix (not the guessable PipePrefix).
TEST(SocketDir, IsTheUsersPrivatePipePrefix) {
  ASSERT_EQ(std::getenv("TABBRIDGE_SOCKET_DIR"), nullptr);
  const std::string user = windows::CurrentUserName();
  EXPECT_TRUE(windows::IsPrivatePipePrefix(SocketDir(), user)) << SocketDir();
  EXPECT_NE(SocketDir(), windows::PipePrefix(user));
  const auto kept = windows::LoadPrivatePipePrefix(EnvUtf8("LOCALAPPDATA") + "\\tabbridge", user);
  ASSERT_TRUE(kept) << kept.error();
  EXPECT_EQ(SocketDir(), *kept);
}

// The private prefix is public while a host listens (anyone can list
// \\.\pipe\): another user who then takes all 64 names must not keep the
// user's browsers out for good. The host renews the prefix, listens under
// the new one, and SocketDir() (what shims probe) says it.
TEST_F(Fixture, APrivatePrefixSquattedWholeIsRenewed) {
  ASSERT_EQ(std::getenv("TABBRIDGE_SOCKET_DIR"), nullptr);
  const std::filesystem::path local =
      std::filesystem::temp_directory_path() / ("tb-renew-" + std::to_string(::GetCurrentProcessId()));
  const std::string saved = EnvUtf8("LOCALAPPDATA");
  ASSERT_EQ(::_putenv_s("LOCALAPPDATA", local.string().c_str()), 0);
  const std::string old = SocketDir();
  ASSERT_TRUE(windows::IsPrivatePipePrefix(old, windows::CurrentUserName())) << old;
  std::vector<HANDLE> squatters;
  for (int slot = 0; slot < kMaxSlots; ++slot) squatters.push_back(RawPipe(SocketPath(old, slot)));
  server_ = std::make_unique<SocketServer>(&loop_, -1);
  server_->SetServerSidLookup([](void*) { return windows::SidOrError(kForeignSid); });
  const auto listening = server_->Listen(old, [](uv_pipe_t* c) { CloseHandle(reinterpret_cast<uv_handle_t*>(c)); });
  const std::string now = SocketDir();
  for (HANDLE h : squatters) ::CloseHandle(h);
  ::_putenv_s("LOCALAPPDATA", saved.c_str());
  std::error_code ec;
  std::filesystem::remove_all(local, ec);
  ASSERT_TRUE(listening) << listening.error();
  EXPECT_NE(now, old) << "the prefix was renewed";
  EXPECT_EQ(server_->path(), SocketPath(now, 0)) << "listening where shims now look";
}

TEST_F(Fixture, OurOwnClientPassesTheRealSidChecksOnBothSides) {
  const std::string prefix = TestPrefix("own");
  ASSERT_TRUE(Serve(prefix));
  EXPECT_EQ(server_->slot(), 0);
  auto link = Connect(server_->path());
  ASSERT_TRUE(link) << link.error().message;
  EXPECT_EQ(connections_, 1);
  EXPECT_EQ(messages_, 1) << "the hello";
  EXPECT_EQ((*link)->hello().value("ok", false), true);
  links_.push_back(std::move(*link));
}

TEST_F(Fixture, ThePipesDaclIsProtectedAndNamesOnlyOurSid) {
  const std::string prefix = TestPrefix("dacl");
  ASSERT_TRUE(Serve(prefix));
  auto link = Connect(server_->path());
  ASSERT_TRUE(link) << link.error().message;
  links_.push_back(std::move(*link));
  // Read back from the instance the client got: libuv made it after the
  // DACL was set, with no security attributes of its own.
  ASSERT_TRUE(instance_sddl_) << instance_sddl_.error();
  const std::string& sddl = *instance_sddl_;
  const std::string sid = OurSid();
  const std::string entries = DaclOf(sddl);
  ASSERT_FALSE(entries.empty()) << sddl;
  EXPECT_EQ(std::count(entries.begin(), entries.end(), '('), 2) << "two entries only: " << sddl;
  // First the network logons denied (the account from another machine), then
  // the one allow entry.
  EXPECT_NE(entries.find("(D;;GA;;;NU)(A;;GA;;;"), std::string::npos) << "deny network, then allow: " << sddl;
  EXPECT_TRUE(entries.ends_with(";;;" + sid + ")")) << "granted to our SID alone: " << sddl;
  EXPECT_EQ(entries.find("WD"), std::string::npos) << "no Everyone: " << sddl;
  EXPECT_EQ(entries.find("BA"), std::string::npos) << "no Administrators: " << sddl;
  // Wine 8 keeps the entries SetSecurityInfo gives but reads the DACL back
  // without its protected flag; Windows reports it.
  if (UnderWine()) {
    std::printf("under Wine: the instance's descriptor reads back as %s\n", sddl.c_str());
  } else {
    EXPECT_TRUE(entries.starts_with("D:P")) << "protected: no inherited entries: " << sddl;
  }
}

TEST(PipeDescriptor, ARawPipesDefaultIsNotTheProtectedOne) {
  // What the host's pipe would have without ProtectPipe (libuv passes no
  // security attributes): the test above would fail on it.
  const std::string name = SocketPath(TestPrefix("raw"), 0);
  const HANDLE raw = RawPipe(name, WRITE_DAC);  // as libuv creates its instances
  ASSERT_NE(raw, INVALID_HANDLE_VALUE);
  const auto sddl = windows::SecurityDescriptorOf(raw);
  ASSERT_TRUE(sddl) << sddl.error();
  std::printf("a pipe created with no security attributes: %s\n", sddl->c_str());
  const std::string entries = DaclOf(*sddl);
  EXPECT_NE(entries, "D:(A;;GA;;;" + OurSid() + ")");
  EXPECT_NE(entries, "D:P(A;;GA;;;" + OurSid() + ")");
  const auto protect = windows::ProtectPipe(raw, OurSid());
  ASSERT_TRUE(protect) << protect.error();
  const auto protected_sddl = windows::SecurityDescriptorOf(raw);
  ASSERT_TRUE(protected_sddl) << protected_sddl.error();
  EXPECT_EQ(DaclOf(*protected_sddl).substr(DaclOf(*protected_sddl).find('(')), "(D;;GA;;;NU)(A;;GA;;;" + OurSid() + ")")
      << *protected_sddl;
  ::CloseHandle(raw);
}

TEST(PipeDescriptor, ProtectPipeRefusesANonSid) {
  const HANDLE raw = RawPipe(SocketPath(TestPrefix("nonsid"), 0), WRITE_DAC);
  ASSERT_NE(raw, INVALID_HANDLE_VALUE);
  const auto ok = windows::ProtectPipe(raw, "S-1-5-21-1)(A;;GA;;;WD");
  EXPECT_FALSE(ok) << "no smuggled Everyone entry";
  ::CloseHandle(raw);
}

TEST_F(Fixture, APipeServedByAnotherSidIsRefusedBeforeTheHello) {
  const std::string prefix = TestPrefix("foreign-server");
  ASSERT_TRUE(Serve(prefix));
  auto link = Connect(server_->path(), [](void*) { return windows::SidOrError(kForeignSid); });
  ASSERT_FALSE(link);
  EXPECT_TRUE(link.error().refused);
  EXPECT_NE(link.error().message.find(kForeignSid), std::string::npos) << link.error().message;
  EXPECT_NE(link.error().message.find("nothing was sent"), std::string::npos) << link.error().message;
  // The server accepted the instance (it cannot know better); let it read
  // whatever came: nothing did.
  RunUntil([&] { return connections_ == 1; });
  uv_run(&loop_, UV_RUN_NOWAIT);
  EXPECT_EQ(messages_, 0) << "the hello never left";
}

TEST_F(Fixture, AnUnreadableServerIsRefusedToo) {
  const std::string prefix = TestPrefix("unknown-server");
  ASSERT_TRUE(Serve(prefix));
  auto link = Connect(server_->path(), [](void*) { return windows::SidOrError(std::unexpected("access denied")); });
  ASSERT_FALSE(link);
  EXPECT_TRUE(link.error().refused) << link.error().message;
}

TEST_F(Fixture, AClientOfAnotherSidIsClosedBeforeItsFirstByteIsRead) {
  const std::string prefix = TestPrefix("foreign-client");
  int looked_up = 0;
  ASSERT_TRUE(Serve(prefix, [&](void*) {
    ++looked_up;
    return windows::SidOrError(kForeignSid);
  }));
  auto link = Connect(server_->path());
  ASSERT_FALSE(link) << "the host closed the pipe: no hello answer";
  EXPECT_FALSE(link.error().refused) << "the client had no reason to refuse";
  EXPECT_EQ(looked_up, 1);
  EXPECT_EQ(connections_, 0) << "never handed to a session";
  EXPECT_EQ(messages_, 0);
}

TEST_F(Fixture, ASquattedSlotNameIsSkipped) {
  const std::string prefix = TestPrefix("squat");
  const HANDLE squatter = RawPipe(SocketPath(prefix, 0));
  ASSERT_NE(squatter, INVALID_HANDLE_VALUE);
  ASSERT_TRUE(Serve(prefix));
  EXPECT_EQ(server_->slot(), 1);
  EXPECT_EQ(server_->path(), SocketPath(prefix, 1));
  EXPECT_EQ(ListSlots(prefix), (std::vector<int>{0, 1}));
  ::CloseHandle(squatter);
}

TEST_F(Fixture, NoPipeIsAPlainError) {
  auto link = Connect(SocketPath(TestPrefix("none"), 0));
  ASSERT_FALSE(link);
  EXPECT_FALSE(link.error().refused);
  EXPECT_NE(link.error().message.find("no such pipe"), std::string::npos) << link.error().message;
}

}  // namespace
}  // namespace tb
