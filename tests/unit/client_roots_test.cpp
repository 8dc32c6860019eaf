// The MCP client's roots as the shim keeps them (mcp_shim/client_roots.h):
// asked once for the uploads that wait, kept, asked again on list_changed
// (and again when the change came while an answer was on its way).
#include "mcp_shim/client_roots.h"

#include <uv.h>

#include <gtest/gtest.h>

namespace tb {
namespace {

class ClientRootsTest : public ::testing::Test {
 protected:
  void SetUp() override { uv_loop_init(&loop_); }
  void TearDown() override {
    roots_.reset();
    uv_run(&loop_, UV_RUN_DEFAULT);  // lets the closed timer go
    uv_loop_close(&loop_);
  }
  // Linux unless the test says: the same roots read on every platform the tests run on.
  ClientRoots& Roots(Platform platform = Platform::kLinux, std::string wsl_distro = "") {
    if (!roots_) {
      roots_ = std::make_unique<ClientRoots>(
          &loop_, [this](const Json& m) { sent_.push_back(m); }, platform, std::move(wsl_distro));
    }
    return *roots_;
  }
  static rpc::Message Response(Json id) {
    rpc::Message message;
    message.kind = rpc::Kind::kResponse;
    message.id = std::move(id);
    return message;
  }
  // The client's answer to the last request sent.
  rpc::Message Answer(Json result) {
    rpc::Message message = Response(sent_.back()["id"]);
    message.result = std::move(result);
    return message;
  }
  static Json RootList(std::initializer_list<const char*> uris) {
    Json roots = Json::array();
    for (const char* uri : uris) roots.push_back({{"uri", uri}, {"name", "r"}});
    return {{"roots", roots}};
  }

  uv_loop_t loop_{};
  std::vector<Json> sent_;
  std::unique_ptr<ClientRoots> roots_;
};

TEST_F(ClientRootsTest, AskedOnceForEveryUploadThatWaitsThenKept) {
  ClientRoots& roots = Roots();
  roots.SetDeclared(true);
  int resumed = 0;
  roots.WhenKnown([&] { ++resumed; });
  roots.WhenKnown([&] { ++resumed; });
  ASSERT_EQ(sent_.size(), 1u);
  EXPECT_EQ(sent_[0]["method"], "roots/list");
  EXPECT_EQ(resumed, 0);
  EXPECT_TRUE(roots.OnResponse(Answer(RootList({"file:///srv/a", "https://x.example/", "file:///srv/b%20c"}))));
  EXPECT_EQ(resumed, 2);
  EXPECT_EQ(roots.paths(), (std::vector<std::string>{"/srv/a", "/srv/b c"}));
  roots.WhenKnown([&] { ++resumed; });
  EXPECT_EQ(resumed, 3);
  EXPECT_EQ(sent_.size(), 1u) << "kept: not asked again";
}

TEST_F(ClientRootsTest, AChangeIsAskedForAtOnce) {
  ClientRoots& roots = Roots();
  roots.SetDeclared(true);
  roots.WhenKnown([] {});
  roots.OnResponse(Answer(RootList({"file:///srv/a"})));
  roots.OnListChanged();
  EXPECT_FALSE(roots.known());
  ASSERT_EQ(sent_.size(), 2u);
  roots.OnResponse(Answer(RootList({"file:///srv/new"})));
  EXPECT_EQ(roots.paths(), (std::vector<std::string>{"/srv/new"}));
}

// The answer on its way when the roots changed may be the old list: it is
// not used, and the roots are asked for again.
TEST_F(ClientRootsTest, AnAnswerThatMayPredateAChangeIsNotUsed) {
  ClientRoots& roots = Roots();
  roots.SetDeclared(true);
  bool resumed = false;
  roots.WhenKnown([&] { resumed = true; });
  roots.OnListChanged();
  roots.OnResponse(Answer(RootList({"file:///srv/old"})));
  EXPECT_FALSE(resumed);
  ASSERT_EQ(sent_.size(), 2u);
  EXPECT_NE(sent_[1]["id"], sent_[0]["id"]);
  roots.OnResponse(Answer(RootList({"file:///srv/new"})));
  EXPECT_TRUE(resumed);
  EXPECT_EQ(roots.paths(), (std::vector<std::string>{"/srv/new"}));
}

TEST_F(ClientRootsTest, AFailedAnswerIsNoRootsAndSaysWhy) {
  ClientRoots& roots = Roots();
  roots.SetDeclared(true);
  roots.WhenKnown([] {});
  rpc::Message failed = Response(sent_.back()["id"]);
  failed.is_error = true;
  failed.error.code = -32601;
  failed.error.message = "Method not found";
  roots.OnResponse(failed);
  EXPECT_TRUE(roots.known());
  EXPECT_TRUE(roots.paths().empty());
  EXPECT_EQ(roots.note(), "your MCP client's roots/list failed (Method not found)");
}

// Claude Code inside WSL running tabbridge.exe sends WSL paths (wsl_roots.h).
TEST_F(ClientRootsTest, OnWindowsAWslClientsRootsAreTranslated) {
  ClientRoots& roots = Roots(Platform::kWindows, "Ubuntu");
  roots.SetDeclared(true);
  roots.WhenKnown([] {});
  roots.OnResponse(Answer(RootList({"file:///home/zo%C3%AB/proj", "file:///mnt/c/src/x", "file:///C:/work"})));
  EXPECT_EQ(roots.paths(),
            (std::vector<std::string>{"\\\\wsl.localhost\\Ubuntu\\home\\zo\xC3\xAB\\proj", "C:\\src\\x", "C:\\work"}));
  EXPECT_EQ(roots.note(), "");
}

TEST_F(ClientRootsTest, OnWindowsWithoutTheDistroAWslRootIsLeftOutAndTheNoteSaysTheFix) {
  ClientRoots& roots = Roots(Platform::kWindows, "");
  roots.SetDeclared(true);
  roots.WhenKnown([] {});
  roots.OnResponse(Answer(RootList({"file:///home/u/proj", "file:///mnt/d/data"})));
  EXPECT_EQ(roots.paths(), (std::vector<std::string>{"D:\\data"}));
  EXPECT_NE(roots.note().find("/home/u/proj"), std::string::npos) << roots.note();
  EXPECT_NE(roots.note().find("--wsl-distro"), std::string::npos) << roots.note();
}

TEST_F(ClientRootsTest, OnLinuxPosixRootsStayAsTheyAre) {
  ClientRoots& roots = Roots(Platform::kLinux, "Ubuntu");
  roots.SetDeclared(true);
  roots.WhenKnown([] {});
  roots.OnResponse(Answer(RootList({"file:///home/u/proj", "file:///mnt/c/x"})));
  EXPECT_EQ(roots.paths(), (std::vector<std::string>{"/home/u/proj", "/mnt/c/x"}));
}

TEST_F(ClientRootsTest, OtherResponsesAndUndeclaredChangesAreNotOurs) {
  ClientRoots& roots = Roots();
  EXPECT_FALSE(roots.OnResponse(Response(7)));
  roots.OnListChanged();  // a client without the capability: nothing to ask
  EXPECT_TRUE(sent_.empty());
}

}  // namespace
}  // namespace tb
