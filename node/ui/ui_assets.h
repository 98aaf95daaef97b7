// The web console's files, compiled into the binary by node/ui/embed_assets.py (meson).
//
// Each asset is kept plain and gzip-compressed. index.html is served at /ui/ under its ETag
// with `Cache-Control: no-cache`; every other asset is named by its content hash
// (/ui/assets/app.3f2a9c0d1e2b4a5c.css), so it never changes under its name and is served
// immutable for a year.
#ifndef SKILLNODE_NODE_UI_UI_ASSETS_H_
#define SKILLNODE_NODE_UI_UI_ASSETS_H_

#include <array>
#include <span>
#include <string_view>

namespace skillnode::node::ui {

struct UiAsset {
  std::string_view name;          // "index.html", or the hashed name under /ui/assets/
  std::string_view content_type;  // "text/javascript; charset=utf-8", ...
  std::string_view etag;          // quoted: "\"<32 hex digits of SHA-256>\""
  std::string_view plain;
  std::string_view gzip;
  bool immutable;  // named by its hash: cacheable for a year
};

// Every asset, sorted by source name; static storage.
std::span<const UiAsset> UiAssets();

}  // namespace skillnode::node::ui

#endif  // SKILLNODE_NODE_UI_UI_ASSETS_H_
