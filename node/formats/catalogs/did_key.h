// did:key identifiers (W3C CCG "The did:key Method") of a node's Ed25519 public key: the AI
// Catalog's host.identifier (docs/formats.md "AI Catalog"), a DID any reader resolves from the
// text alone, naming the key that signs this node's records (publisherKey in the provenance).
//
// "did:key:z" + base58btc(0xed 0x01 || the 32-byte key): multibase 'z' (base58btc), multicodec
// ed25519-pub (0xed, as the varint 0xed 0x01). Pure functions; no I/O.
#ifndef SKILLNODE_NODE_FORMATS_DID_KEY_H_
#define SKILLNODE_NODE_FORMATS_DID_KEY_H_

#include <cstdint>
#include <span>
#include <string>

#include "kademlia/identity.h"

namespace skillnode::node::formats::catalogs {

// Base58 with the Bitcoin alphabet; each leading zero byte is a '1'.
std::string Base58Btc(std::span<const uint8_t> bytes);

std::string DidKeyOf(const kademlia::PublicKey& public_key);

}  // namespace skillnode::node::formats::catalogs

#endif  // SKILLNODE_NODE_FORMATS_DID_KEY_H_
