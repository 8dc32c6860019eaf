// upload_file across the shim and the host: the shim reads the files only for
// a session with --caps upload, only under its upload roots, and sends their
// bytes in _meta; the host hands them to the extension as `files`, names
// them in the audit line, and refuses a call that lacks them.
#include <filesystem>
#include <fstream>

#include "common/audit_log.h"
#include "common/base64.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"
#include "tests/host/harness.h"

namespace tb::test {
namespace {

class UploadTest : public HostTest {
 protected:
  std::string WriteFile(const std::string& name, const std::string& bytes) {
    const std::string path = work_.Join(name);
    std::ofstream(path, std::ios::binary) << bytes;
    return std::filesystem::canonical(path).string();
  }
  // A shim that may upload from the test's directory (not its working directory's).
  fake::McpDriver& UploadingShim() { return ConnectedShim({"--caps", "upload", "--upload-root", work_.path()}); }
};

Json UploadCall(Json paths) {
  return {{"name", tools::kUploadFile}, {"arguments", {{"selector", "#file"}, {"paths", std::move(paths)}}}};
}

void FocusThroughShim(fake::McpDriver& shim) {
  const auto focused = shim.CallTool("focus_tab", {{"tabId", 1}}, kWait);
  ASSERT_TRUE(focused && !fake::IsToolError(*focused)) << (focused ? focused->dump() : "no answer");
}

void HelloWithCaps(fake::SocketClient& client, Json caps) {
  const auto answer = client.rpc().Request("tabbridge/hello", {{"protocol", kShimProtocol}, {"caps", std::move(caps)}},
                                           fake::DeadlineIn(kWait));
  ASSERT_TRUE(answer && answer->contains("result"));
  const auto focused = client.rpc().Request("tools/call", {{"name", "focus_tab"}, {"arguments", {{"tabId", 1}}}},
                                            fake::DeadlineIn(kWait));
  ASSERT_TRUE(focused && !fake::IsToolError(*focused));
}

TEST_F(UploadTest, TheExtensionGetsTheBytesTheShimRead) {
  auto& extension = StartServingExtension();
  auto& shim = UploadingShim();
  FocusThroughShim(shim);
  const std::string bytes("a\0b\xff\n", 5);
  const std::string path = WriteFile("a.bin", bytes);
  shim.SendCallTool(tools::kUploadFile, {{"selector", "#file"}, {"paths", {path}}});
  const auto request = extension.WaitForRequest("page.upload_file", kWait);
  ASSERT_TRUE(request) << "the host did not pass the call on";
  const Json& params = request->message["params"];
  ASSERT_TRUE(params["files"].is_array()) << params.dump();
  ASSERT_EQ(params["files"].size(), 1u);
  EXPECT_EQ(params["files"][0].value("name", ""), "a.bin");
  EXPECT_EQ(params["files"][0].value("size", 0), 5);
  EXPECT_EQ(params["files"][0].value("data", ""), base64::Encode(bytes));
  EXPECT_EQ(params["paths"], Json::array({path}));
  EXPECT_FALSE(params["files"][0].contains("path")) << "the page agent gets no path";
  EXPECT_FALSE(params.contains("_meta")) << "the extension gets the files as an argument";
}

// The audit line names the files that went, where they really are (a link's target).
TEST_F(UploadTest, TheAuditLineNamesTheFilesSent) {
  StartServingExtension();
  auto& shim = UploadingShim();
  FocusThroughShim(shim);
  const std::string real = WriteFile("cv.txt", "cv");
  std::filesystem::create_symlink(real, work_.Join("link.txt"));
  const auto answer =
      shim.CallTool(tools::kUploadFile, {{"selector", "#file"}, {"paths", {work_.Join("link.txt")}}}, kWait);
  ASSERT_TRUE(answer);
  const auto entries = audit::Tail(work_.Join("state/tabbridge/audit.jsonl"), 10);
  const auto line =
      std::ranges::find_if(entries, [](const Json& e) { return e.value("tool", "") == tools::kUploadFile; });
  ASSERT_NE(line, entries.end()) << "no upload_file line";
  EXPECT_EQ(line->value("detail", ""), "files " + real) << line->dump();
}

// Outside the roots (here: no root but the shim's working directory) the
// shim refuses, with the fix, and the host never hears of it.
TEST_F(UploadTest, AFileOutsideTheRootsNeverLeavesTheShim) {
  auto& extension = StartServingExtension();
  auto& shim = ConnectedShim({"--caps", "upload"});
  FocusThroughShim(shim);
  const std::string path = WriteFile("secret.txt", "s");
  const auto answer = shim.CallTool(tools::kUploadFile, {{"selector", "#file"}, {"paths", {path}}}, kWait);
  ASSERT_TRUE(answer);
  EXPECT_TRUE(fake::IsToolError(*answer));
  EXPECT_THAT(fake::ToolText(*answer), ::testing::HasSubstr(path + " is outside the upload roots"));
  EXPECT_THAT(fake::ToolText(*answer), ::testing::HasSubstr("--upload-root DIR"));
  EXPECT_FALSE(extension.WaitForRequest("page.upload_file", std::chrono::milliseconds(0)));
}

TEST_F(UploadTest, AMissingFileIsNamedAndNothingReachesTheExtension) {
  auto& extension = StartServingExtension();
  auto& shim = UploadingShim();
  FocusThroughShim(shim);
  const auto answer =
      shim.CallTool(tools::kUploadFile, {{"selector", "#file"}, {"paths", {work_.Join("nope.txt")}}}, kWait);
  ASSERT_TRUE(answer);
  EXPECT_TRUE(fake::IsToolError(*answer));
  EXPECT_THAT(fake::ToolText(*answer), ::testing::HasSubstr("no such file: " + work_.Join("nope.txt")));
  EXPECT_FALSE(extension.WaitForRequest("page.upload_file", std::chrono::milliseconds(0)));
}

// Without the capability the shim reads nothing: the answer is the host's
// "not enabled", not the shim's word on the path.
TEST_F(UploadTest, WithoutTheCapabilityTheShimReadsNothingAndTheToolIsNotEnabled) {
  StartServingExtension();
  auto& shim = ConnectedShim();
  FocusThroughShim(shim);
  const auto answer =
      shim.CallTool(tools::kUploadFile, {{"selector", "#file"}, {"paths", {work_.Join("nope.txt")}}}, kWait);
  ASSERT_TRUE(answer);
  EXPECT_TRUE(fake::IsToolError(*answer));
  EXPECT_THAT(fake::ToolText(*answer), ::testing::HasSubstr("start tabbridge with --caps upload"));
}

TEST_F(UploadTest, ACallWithoutTheFilesSaysWhyAndReachesNoPage) {
  auto& extension = StartServingExtension();
  auto& client = RawClient(0, /*hello=*/false);
  HelloWithCaps(client, {"upload"});
  const auto answer = client.rpc().Request("tools/call", UploadCall({"/tmp/a.txt"}), fake::DeadlineIn(kWait));
  ASSERT_TRUE(answer);
  EXPECT_TRUE(fake::IsToolError(*answer));
  EXPECT_THAT(fake::ToolText(*answer), ::testing::HasSubstr("did not come with the call"));
  EXPECT_FALSE(extension.WaitForRequest("page.upload_file", std::chrono::milliseconds(0)));
}

TEST_F(UploadTest, FilesThatDoNotMatchThePathsAreRefused) {
  auto& extension = StartServingExtension();
  auto& client = RawClient(0, /*hello=*/false);
  HelloWithCaps(client, {"upload"});
  Json call = UploadCall({"/tmp/a.txt", "/tmp/b.txt"});
  call["_meta"][std::string(kUploadFilesMeta)] = {{{"name", "a.txt"}, {"data", "YQ=="}}};
  const auto answer = client.rpc().Request("tools/call", call, fake::DeadlineIn(kWait));
  ASSERT_TRUE(answer);
  EXPECT_TRUE(fake::IsToolError(*answer));
  EXPECT_THAT(fake::ToolText(*answer), ::testing::HasSubstr("one file per path"));
  EXPECT_FALSE(extension.WaitForRequest("page.upload_file", std::chrono::milliseconds(0)));
}

}  // namespace
}  // namespace tb::test
