// The Windows pipe's pure decisions (docs/windows.md), on Linux and under
// Wine alike: whose pipe peer is allowed, which slot a host takes when names
// are busy, and what the "socket path" of a slot is on Windows.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <uv.h>

#include "common/peer_cred.h"
#include "common/socket_dir.h"
#include "common/windows_names.h"

namespace tb {
namespace {

constexpr const char* kOurs = "S-1-5-21-1004336348-1177238915-682003330-1001";
constexpr const char* kTheirs = "S-1-5-21-1004336348-1177238915-682003330-1002";

TEST(PipePeerAllowed, OnlyOurOwnSid) {
  EXPECT_TRUE(PipePeerAllowed(std::string(kOurs), kOurs));
  EXPECT_FALSE(PipePeerAllowed(std::string(kTheirs), kOurs)) << "another user's process";
  EXPECT_FALSE(PipePeerAllowed(std::string("S-1-5-18"), kOurs)) << "SYSTEM is not us either";
  EXPECT_FALSE(PipePeerAllowed(std::unexpected(std::string("OpenProcess: access denied")), kOurs))
      << "a peer we cannot identify is refused";
}

TEST(PipePeerAllowed, NeedsWellFormedSidsOnBothSides) {
  EXPECT_FALSE(PipePeerAllowed(std::string(""), "")) << "two unknowns are not a match";
  EXPECT_FALSE(PipePeerAllowed(std::string("WD"), "WD"));
  EXPECT_FALSE(PipePeerAllowed(std::string(kOurs), std::string(kOurs) + "-"));
}

TEST(ChooseSlot, TakesTheFirstSlotThatBinds) {
  std::vector<int> tried;
  const auto slot = ChooseSlot(
      [&](int s) {
        tried.push_back(s);
        return 0;
      },
      "\\\\.\\pipe\\tabbridge-ann");
  ASSERT_TRUE(slot);
  EXPECT_EQ(*slot, 0);
  EXPECT_EQ(tried, std::vector<int>{0});
}

TEST(ChooseSlot, ANameInUseOrSquattedMovesToTheNextSlot) {
  // What libuv returns when FILE_FLAG_FIRST_PIPE_INSTANCE finds the name
  // taken (UV_EADDRINUSE) or cannot use it (UV_EACCES): injected, since Wine
  // does not enforce FIRST_PIPE_INSTANCE.
  const std::map<int, int> busy = {{0, UV_EADDRINUSE}, {1, UV_EACCES}};
  const auto slot = ChooseSlot(
      [&](int s) {
        const auto it = busy.find(s);
        return it == busy.end() ? 0 : it->second;
      },
      "\\\\.\\pipe\\tabbridge-ann");
  ASSERT_TRUE(slot) << slot.error();
  EXPECT_EQ(*slot, 2);
}

TEST(ChooseSlot, AnyOtherErrorStopsWithTheSlotsName) {
  int calls = 0;
  const auto slot = ChooseSlot(
      [&](int) {
        ++calls;
        return UV_ENOMEM;
      },
      "\\\\.\\pipe\\tabbridge-ann");
  ASSERT_FALSE(slot);
  EXPECT_EQ(calls, 1) << "not a busy name: no reason to try the others";
  EXPECT_NE(slot.error().find(SocketPath("\\\\.\\pipe\\tabbridge-ann", 0)), std::string::npos) << slot.error();
}

TEST(ChooseSlot, EverySlotTakenIsAnError) {
  const auto slot = ChooseSlot([](int) { return UV_EADDRINUSE; }, "\\\\.\\pipe\\tabbridge-ann");
  ASSERT_FALSE(slot);
  EXPECT_NE(slot.error().find("no free slot"), std::string::npos) << slot.error();
}

TEST(ChooseSlot, EverySlotSquattedNamesTheSquatter) {
  const std::string where = "\\\\.\\pipe\\tabbridge-ann";
  std::vector<int> asked;
  const auto slot = ChooseSlot([](int) { return UV_EADDRINUSE; }, where,
                               [&](int s) -> std::optional<std::string> {
                                 asked.push_back(s);
                                 if (s < 3) return std::nullopt;  // hosts of ours
                                 return SocketPath(where, s) +
                                        ": the process serving it runs as user S-1-5-21-9-9-9-1001, not as you";
                               });
  ASSERT_FALSE(slot);
  EXPECT_NE(slot.error().find("another user holds tabbridge's names"), std::string::npos) << slot.error();
  EXPECT_NE(slot.error().find("S-1-5-21-9-9-9-1001"), std::string::npos) << slot.error();
  EXPECT_EQ(asked, (std::vector<int>{0, 1, 2, 3})) << "the first squatter is named";
}

TEST(ChooseSlot, EverySlotOursIsNoSquatter) {
  const auto slot = ChooseSlot([](int) { return UV_EADDRINUSE; }, "x",
                               [](int) -> std::optional<std::string> { return std::nullopt; });
  ASSERT_FALSE(slot);
  EXPECT_EQ(slot.error().find("another user"), std::string::npos) << slot.error();
}

TEST(SocketPathFor, IsThePipeNameOnWindows) {
  EXPECT_EQ(SocketPathFor(Platform::kWindows, windows::PipePrefix("ann"), 2), windows::PipeName("ann", 2));
  EXPECT_EQ(SocketPathFor(Platform::kLinux, "/run/user/1000/tabbridge", 2), "/run/user/1000/tabbridge/browser-2.sock");
}

}  // namespace
}  // namespace tb
