// The wire codec's bytes, pinned: every message type packs to exactly the bytes the codec wrote
// before its bodies were described by one field table (kademlia/wire/wire_fields.h). The
// expected bytes were captured from the hand-written packers at 0addd54; a change here is a
// change of the wire format, which peers running the older version would misread. The sample
// bodies are shared with wire_test.cpp's round trips (wire_samples.h).
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kademlia/wire/encoding.h"
#include "kademlia/wire/wire.h"
#include "support/wire_datagrams.h"
#include "wire_samples.h"

namespace skillnode::kademlia::wire {
namespace {

using wire_datagrams::Contacts;
using wire_datagrams::EncodeOk;
using wire_datagrams::Filled;
using wire_datagrams::FullHeader;
using wire_datagrams::MinimalHeader;

// One message of each type (named after it), then a ping under the full header.
std::vector<std::pair<std::string, Message>> OnePerType() {
  std::vector<std::pair<std::string, Message>> out;
  for (const Body& body : samples::OnePerType()) {
    Message message{MinimalHeader(), body};
    out.emplace_back(std::string(MessageTypeName(message.type())), message);
  }
  out.emplace_back("ping with the full header", Message{FullHeader(), PingBody{}});
  return out;
}

std::string Sha256Hex(std::span<const uint8_t> bytes) {
  std::array<uint8_t, 32> digest{};
  Sha256Into(bytes, digest);
  return HexEncode(digest);
}

// ---- The bytes captured from the hand-written packers ----------------------------------

// Hex of OnePerType(), in order; the reachability messages (18 to 22), BLOB_HOST (23), the
// relay's messages (24 to 28) and a LISTEN with relays were captured from the codec when they
// were added, at the end of the list.
constexpr std::string_view kOnePerTypeHex[] = {
    // ping
    "87a17601a16e07a174cf0102030405060708a17901a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16180",
    // pong
    "87a17601a16e07a174cf0102030405060708a17902a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16180",
    // find_node
    "87a17601a16e07a174cf0102030405060708a17903a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16181a27467c42034a04005bcaf206eec990bd9637d9fdb6725e0a0c0d4aebf003f17f4c956"
    "eb5c",
    // nodes
    "87a17601a16e07a174cf0102030405060708a17904a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16182a26e7392c42628f10773e3f1baf7d4b2d038a9b73b4d8851081c975db924a399f3915b"
    "e4b6470a01020103e9c4329af8dc70c46ccb79b343f180a59ca766caf68cb774469707f508bcd627dd349220"
    "010db8ffffffffffffffffffff000203eaa2746bc4020102",
    // find_value
    "87a17601a16e07a174cf0102030405060708a17905a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16182a27467c4209c53c074d7ac6a2728b638ac1f376c5fa9eb8f71603017c3ea638c2fd405"
    "48dfa2637503",
    // values
    "87a17601a16e07a174cf0102030405060708a17906a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16186a26e7391c426c7dfd867af1df81010de1891bc781ed21e1c8eba892ef35e3731a1eb87"
    "c2b3a40a01020303eba2746bc40107a272739192c403010203c4400404040404040404040404040404040404"
    "0404040404040404040404040404040404040404040404040404040404040404040404040404040404040404"
    "040404a26c66913ca2747405a26e7801",
    // store
    "87a17601a16e07a174cf0102030405060708a17907a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16184a27467c4209c53c074d7ac6a2728b638ac1f376c5fa9eb8f71603017c3ea638c2fd405"
    "48dfa2746bc40108a2726392c403010203c44004040404040404040404040404040404040404040404040404"
    "040404040404040404040404040404040404040404040404040404040404040404040404040404a26c74cd0e"
    "10",
    // stored
    "87a17601a16e07a174cf0102030405060708a17908a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16180",
    // listen
    "87a17601a16e07a174cf0102030405060708a17909a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16182a27467c4204f48f7207cebf92638debb5694e4a8677350cf88a9e98e73c6c466b6b1d4"
    "3890a26c74cd012c",
    // listening
    "87a17601a16e07a174cf0102030405060708a1790aa26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16181a26c74cc96",
    // push
    "87a17601a16e07a174cf0102030405060708a1790ba26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16183a27467c4208254c329a92850f6d539dd376f4816ee2764517da5e0235514af43316448"
    "0d7aa2726392c403010203c44004040404040404040404040404040404040404040404040404040404040404"
    "040404040404040404040404040404040404040404040404040404040404040404a2676e94c4200505050505"
    "050505050505050505050505050505050505050505050505050505a56167656e74a5736b696c6c09",
    // push_ack
    "87a17601a16e07a174cf0102030405060708a1790ca26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16180",
    // blob_find
    "87a17601a16e07a174cf0102030405060708a1790da26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16181a27467c420fa2c8cc4f28176bbeed4b736df569a34c79cd3723e9ec42f9674b4d46ac6"
    "b8b8",
    // blob_holders
    "87a17601a16e07a174cf0102030405060708a1790ea26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16184a26e7391c42604dabf4ad02d5e7945340a301e5bb431f3b19e292886bd9c8eb4e56a05"
    "a316d50a01020403eca2746bc40102a2687391c4324c650f3ce14972d868fae8e363de6dbc7efd34120d635a"
    "10fc6550ae43692f5f20010db8ffffffffffffffffffff000503eda26d65c3",
    // blob_announce
    "87a17601a16e07a174cf0102030405060708a1790fa26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16183a27467c420fa2c8cc4f28176bbeed4b736df569a34c79cd3723e9ec42f9674b4d46ac6"
    "b8b8a2746bc40103a26c74cd04b0",
    // blob_get
    "87a17601a16e07a174cf0102030405060708a17910a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16183a26467c420060606060606060606060606060606060606060606060606060606060606"
    "0606a26f66cd03e8a26c6ecd01f4",
    // blob_data
    "87a17601a16e07a174cf0102030405060708a17911a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16184a26467c420060606060606060606060606060606060606060606060606060606060606"
    "0606a26f66cd03e8a2737acd0bb8a26279c40401020304",
    // error
    "87a17601a16e07a174cf0102030405060708a1797fa26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16182a1630ea16da57374616c65",
    // unknown
    "87a17601a16e07a174cf0102030405060708a1792aa26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16180",
    // reach_ask
    "87a17601a16e07a174cf0102030405060708a17912a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16181a16ecf0102030405060708",
    // reach_asked
    "87a17601a16e07a174cf0102030405060708a17913a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16181a164c3",
    // dial_request
    "87a17601a16e07a174cf0102030405060708a17914a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16182a16ecf1112131415161718a2746fc4060a0102031ae1",
    // dial_sent
    "87a17601a16e07a174cf0102030405060708a17915a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16181a164c3",
    // dial_back
    "87a17601a16e07a174cf0102030405060708a17916a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16181a16ecf0102030405060708",
    // blob_host
    "87a17601a16e07a174cf0102030405060708a17917a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16184a26467c420060606060606060606060606060606060606060606060606060606060606"
    "0606a2737ace0004b000a2746bc40103a26c74cd04b0",
    // relay_keep
    "87a17601a16e07a174cf0102030405060708a17918a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16181a26c743c",
    // relay_kept
    "87a17601a16e07a174cf0102030405060708a17919a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16181a26c743c",
    // relay
    "87a17601a16e07a174cf0102030405060708a1791aa26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16182a27467c420948fe603f61dc036b5c596dc09fe3ce3f3d30dc90f024c85f3c82db2ccab"
    "679da16dc403010203",
    // relay_back
    "87a17601a16e07a174cf0102030405060708a1791ba26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16182a2746fc4060a0102031ae1a16dc4020405",
    // relayed
    "87a17601a16e07a174cf0102030405060708a1791ca26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16182a26672c41220010db80000000000000000000000011ae1a16dc40106",
    // listen with relays
    "87a17601a16e07a174cf0102030405060708a17909a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16183a27467c4204f48f7207cebf92638debb5694e4a8677350cf88a9e98e73c6c466b6b1d4"
    "3890a26c74cd012ca2726c91c42632a1288ede8dda9848bfc67371a92654f87aef6638b89438800a6d22011e"
    "45c30a01020603ee",
    // ping with the full header
    "8aa17601a16eceffffffffa174cfffffffffffffffffa17901a26964c4200a367b92cf0b037dfd89960ee832"
    "d56f7fc151681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababab"
    "ababababababababababa170c3a173c4405a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a"
    "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5aa16fc41220010d"
    "b8000000000001000200030004ffffa16180",
};

// Size and SHA-256 of EdgeBodies() under MinimalHeader() then FullHeader(), in order.
constexpr std::pair<size_t, std::string_view> kEdgeDigests[] = {
    {101, "b099836c50a8aaf20a4bbb97755e201e0d19b62f58e33a7be29c4e218e8ae74d"},
    {198, "1f51c34f27c66eb429ee9abcb720e7793633740c337fc356d4dec366c4ada127"},
    {294, "e7b2a9c278b21c4d1f3306a75225eaccaff8b4efb9a8f8a0a085edd51d057d21"},
    {391, "96b3ff6f304788035e53bfc2bc9e9ae00ff87b6fc2f3d2597b26df4992f58208"},
    {903, "792c2c07f79266d76dfeb2653aed9c659765bfbe0a6a723790e3cb86dfc02029"},
    {1000, "eacf44a765a8d94b9aaa64b1ab88edf949ec4c2dc39f076d87bbcb1875c1c1c0"},
    {103, "0d7557e6faa39da97524888cb73f5a1b83ad72a8526f10f38fecdc1494fb628c"},
    {200, "daa6bde76d4e4a9384f7549646bd8cfc87c866619aa10470d6c80d888da00cdb"},
    {306, "541309c66e59e9baf718d78fe697e30373d409668bb80e9a2e016fa3ea05ed10"},
    {403, "1e82b522a57931ebeed8d9c4182afe51f89ca53256c8483936257ae4eed9dd6b"},
    {138, "f17aa497adc99f82e67d3090075177466198cfaf911dd2307622964d173cca09"},
    {235, "5f763c2f9a1ab069ec6ecffa46df773d12d71a5c963b0222ab508e3f705e1490"},
    {142, "cc3cc776a9ee710c6da96a13c5486105bffe5611cc7f9d76f1eab488f633b8ec"},
    {239, "5a38f19393f3f40e6f7bec331b56f0fa8304243aa51efab0903aea1a66c2770f"},
    {149, "42f8f16a660d3c693b80ebb5983fc7f4efab1bc9ae7c09f4afa114c08d9d62ed"},
    {246, "c97c5019843a90305e5be0667688dec59b4665da54e09a04becd4a15903be9ea"},
    {159, "29360e3dfe597b9333ddf91ec514c41f91191d3da60f38c9f14947f5c7a55ac0"},
    {256, "40dc21671829853a04ba21d8670231e546d0f9f359c748857c1e9b96b7177ad3"},
    {109, "3c52c20c86bfbc7b54da2e5fa16ef9fe227409243cae9f1be9efa43e4aa4fb68"},
    {206, "681f77d2babfb88b5de47ce090b1cef9fb1536aff1701fc9c348817f5561b033"},
    {191, "e421b9457ce4ae745ff48e117adcc41960b4da1412b278e01fb81746a0a4ffad"},
    {288, "20d49c53872b2d83d6f165376e4a2cbafcd1e165558211a384977bbeff29a058"},
    {115, "daca23284539b69aa6af98a6072c7f1c3c3ee60e0520108aa58b17fde3c23f39"},
    {212, "bff5dadf3ade921ff8f118cb838627ba36ba6344b7e93c83f3279e5dceb47770"},
    {192, "3d595ec25a49b34923bf4520a4d0e312b7bde74f7fbee01d55855d3005b10650"},
    {289, "ce6c99cd05a66e64e030d566f0f9563e14f339e1364a8b23f98f3118868214b6"},
    {115, "28c5b0761832df4bb3080825942e2be38f9510a762ccdedfb17a59a48e14fa2a"},
    {212, "a77825a5c6faae10abe178a5d4b1eb078033fc4460a5064bda4dd1c24e8ca3cd"},
    {313, "c3bb23758a1e143bd073cbcb926a1e6f122be4ce616aeafb4f98238fe60e0fb4"},
    {410, "bd9e94f9c20447e28ffe6726ae45123f1b51475f83d1f284c24b6002736dd796"},
    {260, "59676d415c5533f5970932fdd7de84e223e6df3ff64d866f1857d698275f9538"},
    {357, "6159790b6a7a1c62546f13d74b37f6218a664f260fe71e30f2d90eb3ed5223ca"},
    {1033, "f2e3260759f4255d4bb138680bc0ec1ca4082e352f78e3308f12b44e2f031bb4"},
    {1130, "f813af1fa949319a92d8c0e1027158304090feeb8cd3e2cdd4398e3b4b58f576"},
    {215, "f12cf7ca7a02614dfd797e3cf2292596c43cc6a39e02aeb91aef8cc2bc0cfa8e"},
    {312, "922e6e6b641ee9f88c7ce670d174262f6ab1244e1b5c0ac8d4343462b0bd29f3"},
    {1102, "dcfcabbdb131db1a6f144ffa1b53915a669010bee947c5cf645c7937bb96cd3f"},
    {1199, "e89e799cbee5362280254edb7f11491a56351f8c78dab15f5eef825cfc62ee72"},
    {138, "0d47f152f45d8f0fe7bb3e9163d819ae15b198cd221b5bec3b49114e72e4b6a7"},
    {235, "04895005f129be282c926b30946981fd565bb3fe7d0f2fba3ba823e3c7ec5983"},
    {101, "888797d2b3e09fb25aabb038e9c912c35d9ca67e9eca974ee99b1ee9e77f1b9a"},
    {198, "bf541bb0e00fd50e534ab085d4533c3a9c0063eb85401db36a6ac73da480f8f6"},
    {105, "40968bc40104f4d617d2926efe15c33ec9d80f902d8981c4698c02d0f7f10a58"},
    {202, "0e04c8d6310c2ace63fd3b0cc6f23cb540bf8130f29788d13fcd6f46e72355e6"},
    {208, "4323d71666e9a70cfd5b7e4a606e29c73dd319804cef4c656b565d10fc0d9d66"},
    {305, "314501e40daf3838abeb5e0de8758e4f3b2859007cf71d52b15a8cdca10e66fa"},
    {185, "c2d1f18dce7a36af6bbe61e4d5ccd4ca0dada831dcc1d4edcf061b63fd96b972"},
    {282, "b71536cb9c76742f42275b3a41b781d3d158d60cb92f5849fc3a73fbb9d8ae55"},
    {1114, "1559462296cc1735052cbc021fc45e77c2969b356b6a25a66bdea12f146039c7"},
    {1211, "a926be18ef9c41859888484b99e3eda3713fc521d9f77916d2ab8fd2b688da60"},
    {134, "6d48fa647eee09e705cee4abbe9ae12c1361d0a9a7f89378bf70582e2bdf0f10"},
    {231, "3ebf58a1786aaa107e816a309fe07df73fef444e7b4e942d176d25a7a174e2d5"},
    {105, "b4921690262c70177965c4fc379756acd6a057dbc8ef90fef49483425cbcc894"},
    {202, "cb68c06c5171be5605feda2feb9003bb255ef4139f61a6e1104027cc95e60711"},
    {962, "bebee5a73fe5d3f71e8d7054c68071ef441d5d85d4fd4d73743a50ae00bfa235"},
    {1059, "1abede8ac2425bcd9f1f1a11a5b3da4066c1f13e78b3ec5bc5fecb589958f630"},
    {143, "bdaa5a29220e504b8ae12019b36cd42ddf2866484efbde3f760d4f7878f73e8a"},
    {240, "f473143d8f5fcc04459e1449439d10a753d5b39fc3954ee2a3213625a6dd8166"},
    {179, "82810351eeaa12305d5db0e13b08ad5631d98060d79d5e73835b1ef9fb386b9b"},
    {276, "ff293d58abf28fc4c06892dae0f1287ea2ea21f7cef1f2e7fd9b8341f413f6cb"},
    {142, "4725638b56ab5c5c8d53f2b2f93417efcbd3d0adeb9799d3b6a8dd60bceabc33"},
    {239, "3c1cf0335c8f870dc63d293165115dbf83b63bbdf8d858715fde769682da64c7"},
    {154, "c0e4d927484c82a4f93a6f53074396f0453895bb7c690d47a379379f8954f01b"},
    {251, "67af4a567143d1ac128beb05fc28fa34cf0714ec19b967379dfdc62129983f34"},
    {147, "a020d8fb2b0b5c9a1e7fe47914549cbeec1aee869da8b721e450e443a0b4505d"},
    {244, "b29538a7b8ab77b477c2a1c0a0da9056401eef9c05ddaf00d702b2515608680b"},
    {1154, "f0d67b55b6d6e84f78e9f07e4741c0033228b53318815169a812bfaae08ff745"},
    {1251, "fb072ebb1367b49b26ffb0d797e739bb6e259867dad60aaa06d1d108f13483d3"},
    {97, "b7218057f17ac4e7cbe8aa3938a46b7e7623ae3ef3031925d0676f854f2b543b"},
    {194, "0430b11117654e29671229e86af1d7da6939a89df00fb889541ad222ad9e1896"},
    {98, "6e01e9388140b850ef86d0026c6189e2ec100d27a451bf2198967962c4b338fc"},
    {195, "ec2acc9f429a414fd52bf1ab8084250a0cef02f4bb99b53ba88adb682812ffae"},
    {100, "cb5bffe342eb1cfb64da2c85347256ef054b4ad8a5393be8fa2358cb863fb4b1"},
    {197, "71785d6b93278f783bf28e44c81ff74e3d419e1219aee6bcce480d02c062b32e"},
    {97, "006571e22cba523131fc01a06e532d1f4ce40c804df61122854d10ee5906c057"},
    {194, "afbf44781f23593a18c0f8fa227fd5d54736b3f077894f46f45edba15dc256ac"},
    {131, "97f000b064089f5250aab5b9abfe5ca14163f249035e6016500b8d027eb90d9d"},
    {228, "7304b2a129d48638b3ab5b0fca940e09ce3ea8e072710eb1904fd864c2bf1cea"},
    {97, "18896f11d315f1ff12e44aa476d6fc1bfc9e149ee9d9d2493d2310947580fdc6"},
    {194, "b88f74880c651d3ad2f0e459e82d2ccb5bdff75b2582354316e12e601c4c79bc"},
    {108, "6c82e050d8b31e79f4cfaafcf3ef83f06f1e5f41a61a55f986cad5dd897af3d7"},
    {205, "0b0b280265db79ee7df606574984ea9d137a5bc414af17995074f1547399cb93"},
    {147, "08015fae61e35bff163bc9b8048567b6f540d2970c13e09013d5de7efa1b73ad"},
    {244, "de969762c2b831c96dbf4a86a1b960a324e96c0bc6d6906f316fcd35f2455198"},
    {191, "f05d178b83f0da4a7ae34fbbea7f9b7e17e8b8bf3e6ed36ed034b2ec107749ca"},
    {288, "b99c0a1b49a5cb85301d33146669ead6693692163d4fcb5ec4a52c918c5cde65"},
    {101, "27d0f8cb46855fe887b0c680e48ecd79108cebee6a2dbba3ca1ecf41f80d06c5"},
    {198, "7bacf55ebb7e2a2b95ee0b7f31c9eddaad5436d91aa384bc8ca5e2dda80c4acb"},
    {105, "9ba580e5273ad93cd3bf91201f235172db72f7be3f0baa2324199ba1f5899feb"},
    {202, "a2cd408993623fd7f26054b3f622ee992fcabfd47ccaa6bc1654d99cddd05298"},
    {138, "30fe297b6fb397b55cc6302702eb1e04ba8a114d209ffd6a7aab53cfc9d88136"},
    {235, "8151cafbb4f2afe67900021d4699ed913c0d6ea609df1ecfdcd2cd3a301dd27b"},
    {1239, "6ef4fd61be798d36538d7d51048a07b06ec6735b19f72d08322d74d63413bedd"},
    {1336, "060c6dcc650ad2ea3386ebcefff307285ac4e99329d18c72117f37d3d63fc1cc"},
    {1225, "72c0a45b81bf1a9bc60794efdeaac0108800860409155344b475080e104f484d"},
    {1322, "c9c799b97204e9fdb34a3a6a8484e2d06aa95e9ef70f8cf8ad6daba4dbfe788e"},
    {1225, "bf686ca1c816171680f6e6a0b51684d7d3329298976a53aa793b7d0dc6c419c2"},
    {1322, "960bf1755116100de6ea498c9e29e0b34d8666421de969c4e58e01cf73479930"},
    {250, "46ad95bf7c309a9271e8300926ede5d2f2a127a651413c561871964fed3afd80"},
    {347, "4717bd0cec01f2c9bb920e8b104392dc39b71e47984f140953c84f94860039c6"},
};
// A STORE, a VALUES (an inline record, then a reference) and a PUSH with a record by reference.
constexpr std::string_view kReferenceStoreHex =
    "87a17601a16e07a174cf0102030405060708a17907a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16184a27467c4209c53c074d7ac6a2728b638ac1f376c5fa9eb8f71603017c3ea638c2fd405"
    "48dfa2746bc40108a2726393c420d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1"
    "d1d1cd0cf1c44051515151515151515151515151515151515151515151515151515151515151515151515151"
    "515151515151515151515151515151515151515151515151515151a26c74cd0e10";
constexpr std::string_view kReferenceValuesHex =
    "87a17601a16e07a174cf0102030405060708a17906a26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16185a26e7390a2746bc40107a272739292c403010203c44004040404040404040404040404"
    "0404040404040404040404040404040404040404040404040404040404040404040404040404040404040404"
    "0404040404040493c420d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1cd0c"
    "f1c4405151515151515151515151515151515151515151515151515151515151515151515151515151515151"
    "5151515151515151515151515151515151515151515151a26c66923c3da2747402";
constexpr std::string_view kReferencePushHex =
    "87a17601a16e07a174cf0102030405060708a1790ba26964c4200a367b92cf0b037dfd89960ee832d56f7fc1"
    "51681bb41e53690e776f5786998aa16bc420abababababababababababababababababababababababababab"
    "ababababababa16182a27467c4208254c329a92850f6d539dd376f4816ee2764517da5e0235514af43316448"
    "0d7aa2726393c420d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1cd0cf1c4"
    "4051515151515151515151515151515151515151515151515151515151515151515151515151515151515151"
    "515151515151515151515151515151515151515151";
constexpr std::pair<size_t, std::string_view> kFittedDigest = {
    1277, "71aef4d78e37eea926457fee0f2250c67d1051eb37f7460cca9f2836c22a3f85"};

TEST_CASE("each message type packs to the bytes the hand-written packers wrote", "[unit]") {
  const auto messages = OnePerType();
  REQUIRE(messages.size() == std::size(kOnePerTypeHex));
  for (size_t i = 0; i < messages.size(); ++i) {
    INFO(messages[i].first);
    const auto bytes = EncodeOk(messages[i].second);
    CHECK(HexEncode(bytes) == kOnePerTypeHex[i]);
    // And the bytes read back as the message.
    CHECK(wire_datagrams::DecodeOk(bytes) == messages[i].second);
  }
}

TEST_CASE("bodies at their limits and without optional fields pack to the same bytes as before",
          "[unit]") {
  const auto bodies = samples::EdgeBodies();
  REQUIRE(bodies.size() * 2 == std::size(kEdgeDigests));
  size_t i = 0;
  for (const Body& body : bodies) {
    for (const Header& header : {MinimalHeader(), FullHeader()}) {
      INFO("body " << i / 2 << (i % 2 == 0 ? ", minimal header" : ", full header"));
      const auto bytes = EncodeOk(Message{header, body});
      CHECK(bytes.size() == kEdgeDigests[i].first);
      CHECK(Sha256Hex(bytes) == kEdgeDigests[i].second);
      ++i;
    }
  }
}

TEST_CASE("EncodeFitting drops the same contacts and packs the same bytes as before", "[unit]") {
  const Message many{FullHeader(), NodesBody{Contacts(40, true), std::vector<uint8_t>(32, 1)}};
  const auto bytes = EncodeFitting(many);
  REQUIRE(bytes);
  CHECK(bytes->size() == kFittedDigest.first);
  CHECK(Sha256Hex(*bytes) == kFittedDigest.second);
}

TEST_CASE("a record by reference packs as [digest, size, signature] in STORE, VALUES and PUSH",
          "[unit]") {
  const WireRecord reference =
      WireRecord::Referring(RecordReference{Filled<32>(0xd1), 3313}, Filled<64>(0x51));
  // fixarray of 3, bin8 of 32 bytes, uint16 3313, bin8 of 64 bytes.
  const std::string entry =
      "93c420" + HexEncode(Filled<32>(0xd1)) + "cd0cf1c440" + HexEncode(Filled<64>(0x51));
  const WireRecord inline_record{{1, 2, 3}, Filled<64>(4)};
  const std::pair<Body, std::string_view> cases[] = {
      {StoreBody{Key::Sha256("skill"), {8}, reference, 3600}, kReferenceStoreHex},
      {ValuesBody{{}, {7}, {inline_record, reference}, 2, std::nullopt, {60, 61}, {}, {}},
       kReferenceValuesHex},
      {PushBody{Key::Sha256("k"), reference, std::nullopt}, kReferencePushHex},
  };
  for (const auto& [body, hex] : cases) {
    const Message message{MinimalHeader(), body};
    const auto bytes = EncodeOk(message);
    CHECK(HexEncode(bytes).find(entry) != std::string::npos);
    CHECK(HexEncode(bytes) == hex);
    CHECK(wire_datagrams::DecodeOk(bytes) == message);
  }
}

TEST_CASE("a relay's envelope around the largest datagram fits kRelayDatagramSizeMax, no other",
          "[unit]") {
  // The header a node sends a notice under, at its largest: no proof, no observed address.
  Header header = FullHeader();
  header.proof_wanted = false;
  header.proof.reset();
  header.observed.reset();
  header.client = true;
  const std::vector<uint8_t> whole(kDatagramSizeMax, 7);
  const transport::Endpoint v6 = wire_datagrams::Ep("[2001:db8:ffff:ffff:ffff:ffff:ffff:1]:65535");
  for (const Body& body : std::vector<Body>{RelayBody{Key::Sha256("client"), whole},
                                            RelayBackBody{v6, whole}, RelayedBody{v6, whole}}) {
    const Message envelope{header, body};
    INFO(MessageTypeName(envelope.type()));
    const auto bytes = EncodeOk(envelope);
    CHECK(bytes.size() > kDatagramSizeMax);
    CHECK(bytes.size() <= kDatagramSizeMax + 153);  // the overhead wire.h states
    CHECK(wire_datagrams::DecodeOk(bytes) == envelope);
    // Any other type in a datagram that long is refused, before its body is read.
    std::vector<uint8_t> retyped = bytes;
    const uint8_t type_key[] = {0xa1, 'y'};
    auto at = std::search(retyped.begin(), retyped.end(), std::begin(type_key), std::end(type_key));
    REQUIRE(at != retyped.end());
    *(at + 2) = static_cast<uint8_t>(MessageType::kPing);
    const auto refused = Decode(retyped);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.find("-byte limit") != std::string::npos);
  }
}

}  // namespace
}  // namespace skillnode::kademlia::wire
