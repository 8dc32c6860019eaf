// The MCP revisions the shim speaks, chosen by what the client sends:
// initialize for 2025-06-18 and 2025-11-25; for 2026-07-28 no handshake, the
// revision in every request's _meta, server/discover, and list changes on a
// subscriptions/listen stream only (docs/protocol.md "MCP revisions").
#include "common/jsonrpc.h"
#include "common/protocol.h"
#include "tests/host/harness.h"

namespace tb::test {
namespace {

using ::testing::HasSubstr;

constexpr std::string_view kModern = "2026-07-28";

// The per-request envelope of a 2026-07-28 request.
Json Meta(std::string_view version = kModern) {
  return {{mcp::kMetaProtocolVersion, version},
          {mcp::kMetaClientCapabilities, Json::object()},
          {mcp::kMetaClientInfo, {{"name", "tabbridge-tests"}, {"version", "0"}}}};
}

Json WithMeta(Json params, Json meta = Meta()) {
  params["_meta"] = std::move(meta);
  return params;
}

int ErrorCode(const Json& response) { return response.value("error", Json::object()).value("code", 0); }
std::string ErrorMessage(const Json& response) {
  return response.value("error", Json::object()).value("message", std::string());
}
const Json& Result(const Json& response) {
  static const Json kNone;
  const auto it = response.find("result");
  return it == response.end() ? kNone : *it;
}

class McpRevisionsTest : public HostTest {
 protected:
  std::optional<Json> Request(fake::McpDriver& shim, std::string_view method, Json params) {
    return shim.rpc().Request(method, std::move(params), fake::DeadlineIn(kWait));
  }
  std::optional<Json> Initialize(fake::McpDriver& shim, std::string_view version) {
    return Request(shim, mcp::kInitialize,
                   {{"protocolVersion", version},
                    {"capabilities", Json::object()},
                    {"clientInfo", {{"name", "t"}, {"version", "0"}}}});
  }
  // Opens a listen stream with id `id`; the acknowledgement's filter.
  Json Listen(fake::McpDriver& shim, const Json& id, Json filter) {
    shim.rpc().SendLine(rpc::Dump({{"jsonrpc", "2.0"},
                                   {"id", id},
                                   {"method", mcp::kListen},
                                   {"params", WithMeta({{"notifications", std::move(filter)}})}}));
    const auto ack = shim.rpc().WaitNotification(mcp::kSubscriptionsAcknowledged, fake::DeadlineIn(kWait));
    if (!ack) return nullptr;
    EXPECT_EQ((*ack)["params"]["_meta"][mcp::kMetaSubscriptionId], id) << ack->dump();
    return (*ack)["params"]["notifications"];
  }
};

TEST_F(McpRevisionsTest, Initialize20250618IsAnsweredWithIt) {
  auto& shim = StartShim(false);
  const auto response = Initialize(shim, "2025-06-18");
  ASSERT_TRUE(response);
  EXPECT_EQ(Result(*response).value("protocolVersion", ""), "2025-06-18") << response->dump();
  EXPECT_FALSE(Result(*response).contains("resultType")) << "a 2025 result carries no resultType";
}

TEST_F(McpRevisionsTest, Initialize20251125IsAnsweredWithIt) {
  auto& shim = StartShim(false);
  const auto response = Initialize(shim, "2025-11-25");
  ASSERT_TRUE(response);
  EXPECT_EQ(Result(*response).value("protocolVersion", ""), "2025-11-25") << response->dump();
  EXPECT_EQ(Result(*response)["capabilities"]["tools"]["listChanged"], true);
}

TEST_F(McpRevisionsTest, InitializeAsking20260728OrAnUnknownRevisionGetsTheNewestHandshakeRevision) {
  auto& shim = StartShim(false);
  for (const std::string_view asked : {kModern, std::string_view("1999-01-01")}) {
    const auto response = Initialize(shim, asked);
    ASSERT_TRUE(response);
    EXPECT_EQ(Result(*response).value("protocolVersion", ""), mcp::kInitializeVersions[0]) << response->dump();
  }
}

TEST_F(McpRevisionsTest, ServerDiscoverWithoutInitializeListsEveryRevision) {
  auto& shim = StartShim(false);
  const auto response = Request(shim, mcp::kDiscover, WithMeta(Json::object()));
  ASSERT_TRUE(response);
  const Json& result = Result(*response);
  EXPECT_EQ(result.value("resultType", ""), "complete") << response->dump();
  EXPECT_EQ(result["supportedVersions"], Json({"2026-07-28", "2025-11-25", "2025-06-18"}));
  EXPECT_EQ(result["capabilities"]["tools"]["listChanged"], true);
  EXPECT_FALSE(result["capabilities"].contains("logging")) << "log messages are not sent unasked in 2026-07-28";
  EXPECT_EQ(result["_meta"][mcp::kMetaServerInfo].value("name", ""), "tabbridge");
  EXPECT_TRUE(result["ttlMs"].is_number_integer() && result["ttlMs"].get<int64_t>() >= 0) << response->dump();
  EXPECT_TRUE(result["cacheScope"] == "public" || result["cacheScope"] == "private") << response->dump();
  EXPECT_TRUE(result["instructions"].is_string());
}

TEST_F(McpRevisionsTest, A20260728RequestNeedsNoInitializeAndItsResultsCarryResultType) {
  auto& shim = StartShim(false);
  const auto list = Request(shim, mcp::kToolsList, WithMeta(Json::object()));
  ASSERT_TRUE(list);
  EXPECT_EQ(Result(*list).value("resultType", ""), "complete") << list->dump();
  EXPECT_EQ(Result(*list).value("ttlMs", -1), 0) << list->dump();
  EXPECT_EQ(Result(*list).value("cacheScope", ""), "private") << list->dump();
  ASSERT_TRUE(Result(*list)["tools"].is_array());
  EXPECT_EQ(Result(*list)["tools"][0].value("name", ""), "connect_browser");
  const auto call = Request(shim, mcp::kToolsCall, WithMeta({{"name", "list_tabs"}}));
  ASSERT_TRUE(call);
  EXPECT_EQ(Result(*call).value("resultType", ""), "complete") << call->dump();
  EXPECT_EQ(Result(*call).value("isError", false), true) << "not connected yet";
}

TEST_F(McpRevisionsTest, RelayedHostAnswersCarryResultTypeFor2026AndNothingNewFor2025) {
  StartServingExtension();
  auto& shim = StartShim(false);
  const auto connect =
      Request(shim, mcp::kToolsCall, WithMeta({{"name", "connect_browser"}, {"arguments", Json::object()}}));
  ASSERT_TRUE(connect);
  ASSERT_EQ(fake::Structured(*connect).value("connected", false), true) << connect->dump();
  EXPECT_EQ(Result(*connect).value("resultType", ""), "complete");
  const auto tabs = Request(shim, mcp::kToolsCall, WithMeta({{"name", "list_tabs"}}));
  ASSERT_TRUE(tabs);
  EXPECT_EQ(Result(*tabs).value("resultType", ""), "complete") << tabs->dump();
  EXPECT_TRUE(Result(*tabs)["structuredContent"]["tabs"].is_array()) << tabs->dump();
  const auto list = Request(shim, mcp::kToolsList, WithMeta(Json::object()));
  ASSERT_TRUE(list);
  EXPECT_EQ(Result(*list).value("resultType", ""), "complete") << list->dump();
  EXPECT_EQ(Result(*list).value("ttlMs", -1), 0);
  EXPECT_EQ(Result(*list).value("cacheScope", ""), "private");
  // The same shim, asked without _meta: the host's answer as it was.
  const auto legacy = Request(shim, mcp::kToolsCall, {{"name", "list_tabs"}});
  ASSERT_TRUE(legacy);
  EXPECT_FALSE(Result(*legacy).contains("resultType")) << legacy->dump();
}

TEST_F(McpRevisionsTest, ListChangedGoesToTheListenStreamTaggedAndNotBare) {
  StartServingExtension();
  auto& shim = StartShim(false);
  EXPECT_EQ(Listen(shim, "sub-1", {{"toolsListChanged", true}, {"promptsListChanged", true}}),
            Json({{"toolsListChanged", true}}))
      << "only what we can honour is acknowledged";
  EXPECT_EQ(Listen(shim, 7, {{"resourcesListChanged", true}}), Json::object());
  const auto connect =
      Request(shim, mcp::kToolsCall, WithMeta({{"name", "connect_browser"}, {"arguments", Json::object()}}));
  ASSERT_TRUE(connect);
  ASSERT_EQ(fake::Structured(*connect).value("connected", false), true) << connect->dump();
  // Sent before the answer, like for a 2025 client: all of it has been read.
  const auto changes = shim.rpc().TakeNotifications();
  ASSERT_EQ(changes.size(), 1u) << "one list_changed, on sub-1 only: " << Json(changes).dump();
  EXPECT_EQ(changes[0]["method"], mcp::kToolsListChanged);
  EXPECT_EQ(changes[0]["params"]["_meta"][mcp::kMetaSubscriptionId], "sub-1") << changes[0].dump();

  // A cancelled stream gets nothing more, and no answer.
  shim.rpc().SendNotification(mcp::kCancelled, {{"requestId", "sub-1"}});
  const auto open = shim.CallTool("open_tab", {{"url", "http://127.0.0.1/x"}}, kWait);
  ASSERT_TRUE(open);
  ASSERT_FALSE(fake::IsToolError(*open)) << open->dump();
  const auto after = Request(shim, mcp::kToolsList, WithMeta(Json::object()));  // a barrier
  ASSERT_TRUE(after);
  for (const Json& n : shim.rpc().TakeNotifications()) ADD_FAILURE() << "after the cancel: " << n.dump();
  EXPECT_FALSE(shim.rpc().WaitResponse("sub-1", fake::DeadlineIn(std::chrono::milliseconds(0))));
}

TEST_F(McpRevisionsTest, An2025ClientStillGetsBareListChanged) {
  StartServingExtension();
  auto& shim = StartShim();  // initialize 2025-06-18
  const auto connect = shim.CallTool("connect_browser", Json::object(), kWait);
  ASSERT_TRUE(connect);
  const auto changes = shim.rpc().TakeNotifications();
  ASSERT_EQ(changes.size(), 1u) << Json(changes).dump();
  EXPECT_EQ(changes[0]["method"], mcp::kToolsListChanged);
  EXPECT_FALSE(changes[0].contains("params") && changes[0]["params"].contains("_meta")) << changes[0].dump();
}

TEST_F(McpRevisionsTest, AnUnknownRevisionIsUnsupportedProtocolVersionListingOurs) {
  auto& shim = StartShim(false);
  const auto response = Request(shim, mcp::kToolsList, WithMeta(Json::object(), Meta("2099-01-01")));
  ASSERT_TRUE(response);
  EXPECT_EQ(ErrorCode(*response), mcp::kUnsupportedProtocolVersion) << response->dump();
  const Json& data = (*response)["error"]["data"];
  EXPECT_EQ(data["requested"], "2099-01-01");
  EXPECT_EQ(data["supported"], Json({"2026-07-28", "2025-11-25", "2025-06-18"}));
}

TEST_F(McpRevisionsTest, RemovedMethodsAreNotFoundIn2026AndDiscoverNeedsTheRevision) {
  auto& shim = StartShim(false);
  for (const std::string_view method : {mcp::kPing, mcp::kSetLevel}) {
    const auto response = Request(shim, method, WithMeta({{"level", "info"}}));
    ASSERT_TRUE(response);
    EXPECT_EQ(ErrorCode(*response), rpc_error::kMethodNotFound) << response->dump();
  }
  // Without a revision in _meta it is a 2025 request: a dual-era client's probe falls back to initialize.
  const auto discover = Request(shim, mcp::kDiscover, Json::object());
  ASSERT_TRUE(discover);
  EXPECT_EQ(ErrorCode(*discover), rpc_error::kMethodNotFound) << discover->dump();
  EXPECT_THAT(ErrorMessage(*discover), HasSubstr(mcp::kMetaProtocolVersion));
  // ping still answers a 2025 request.
  EXPECT_TRUE(Request(shim, mcp::kPing, Json::object())->contains("result"));
}

struct BadEnvelope {
  std::string name;
  Json params;
  std::string names;  // what the message must mention
};

void PrintTo(const BadEnvelope& bad, std::ostream* out) { *out << bad.name; }

class McpEnvelopeTest : public McpRevisionsTest, public ::testing::WithParamInterface<BadEnvelope> {};

TEST_P(McpEnvelopeTest, IsInvalidParamsNamingTheField) {
  auto& shim = StartShim(false);
  const auto response =
      Request(shim, GetParam().name.starts_with("Listen") ? mcp::kListen : mcp::kToolsList, GetParam().params);
  ASSERT_TRUE(response);
  EXPECT_EQ(ErrorCode(*response), rpc_error::kInvalidParams) << response->dump();
  EXPECT_THAT(ErrorMessage(*response), HasSubstr(GetParam().names));
  // The shim lives on.
  EXPECT_TRUE(Result(*Request(shim, mcp::kDiscover, WithMeta(Json::object()))).contains("supportedVersions"));
}

Json MetaWith(std::string_view key, Json value) {
  Json meta = Meta();
  if (value.is_discarded()) {
    meta.erase(std::string(key));
  } else {
    meta[std::string(key)] = std::move(value);
  }
  return {{"_meta", std::move(meta)}};
}

INSTANTIATE_TEST_SUITE_P(
    WrongTypes, McpEnvelopeTest,
    ::testing::Values(
        BadEnvelope{"MetaIsAString", {{"_meta", "x"}}, "params._meta must be an object"},
        BadEnvelope{"ProtocolVersionIsANumber", MetaWith(mcp::kMetaProtocolVersion, 20260728),
                    std::string(mcp::kMetaProtocolVersion)},
        BadEnvelope{"ClientCapabilitiesMissing", MetaWith(mcp::kMetaClientCapabilities, Json(Json::value_t::discarded)),
                    std::string(mcp::kMetaClientCapabilities)},
        BadEnvelope{"ClientCapabilitiesIsAnArray", MetaWith(mcp::kMetaClientCapabilities, Json::array()),
                    std::string(mcp::kMetaClientCapabilities)},
        BadEnvelope{"ClientInfoIsAString", MetaWith(mcp::kMetaClientInfo, "me"), std::string(mcp::kMetaClientInfo)},
        BadEnvelope{"LogLevelIsUnknown", MetaWith(mcp::kMetaLogLevel, "loud"), std::string(mcp::kMetaLogLevel)},
        BadEnvelope{"ListenWithoutNotifications", WithMeta(Json::object()), "params.notifications"},
        BadEnvelope{"ListenToolsListChangedIsAString", WithMeta({{"notifications", {{"toolsListChanged", "yes"}}}}),
                    "toolsListChanged"},
        BadEnvelope{"ListenResourceSubscriptionsIsAString",
                    WithMeta({{"notifications", {{"resourceSubscriptions", "file:///x"}}}}), "resourceSubscriptions"}),
    [](const auto& test) { return test.param.name; });

}  // namespace
}  // namespace tb::test
