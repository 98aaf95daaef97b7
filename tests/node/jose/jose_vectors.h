// Signatures made by another implementation, for the verifiers' tests: the npm package jose
// 6.2.18 (Node.js 20) generated each key and signed kPayload with FlattenedSign under the
// protected header {"alg", "kid", "typ": "JOSE"}; the payload is left out of each JWS, as an A2A
// card signature leaves it out. Also RFC 7638's and RFC 8037's keys with their thumbprints.
#ifndef SKILLNODE_TESTS_NODE_JOSE_JOSE_VECTORS_H_
#define SKILLNODE_TESTS_NODE_JOSE_JOSE_VECTORS_H_

namespace skillnode::node::jose::vectors {

inline constexpr const char* kPayload = R"({"name":"skillnode","version":"1.0.0"})";

inline constexpr const char* kEs256Jwk = R"({"kty":"EC","crv":"P-256","kid":"es256-key",
  "x":"6gP00KEjBXTihptDps3EZk7cEW82QP9QEz8iql8dcsU",
  "y":"2DjIrE9W4_gE7r6r0CIN7vxjY7qRJGJjqEJgmNI8o8c"})";
inline constexpr const char* kEs256Protected =
    "eyJhbGciOiJFUzI1NiIsImtpZCI6ImVzMjU2LWtleSIsInR5cCI6IkpPU0UifQ";
inline constexpr const char* kEs256Signature =
    "49HiDPD_HQ-sw5icTd-b2sJPwriHzCOC3cw5Y_uFqaDgcxs-3kf5rQUTOQNvrneS39hfH1ZHNe4xO196wJAr1A";

inline constexpr const char* kRs256Kid = "rs256-key";  // e: AQAB
inline constexpr const char* kRs256N =
    "08pKxPeCnYHSNHQcHSPuCei-zgS2qZbQu-_IE_s3ENfMvUrC8vmz33mDL5HNJxobcaZOHmgGRjRDW5HfJQccicRn"
    "SW2-nRWh0WNsqA_mmkIgdacBaJ-kI3zRCJ8h-oyLWUe_zXozlIds_eFt0PlqmHCJnloXORn_ON08P68OjObk0fDE"
    "e5fmd4QNCA2RBDQnxHiHMeuLlUNbkVw93xcIAQk4rxCnmQn0sGLV5zOf0F9pGJPmXkDZczGANsNgo63LYczPpS0n"
    "2uieOc6ryjkWnm0ZFYPBdR3jydJEjBtNMfXD1F-NjC5muYNmVdslPOlUOK5N_zIWsREeCR_f82fyrQ";
inline constexpr const char* kRs256Protected =
    "eyJhbGciOiJSUzI1NiIsImtpZCI6InJzMjU2LWtleSIsInR5cCI6IkpPU0UifQ";
inline constexpr const char* kRs256Signature =
    "gMNpM5JTWznFiOLShnNRcDKg9WzN7KqMaTzOHIomwaYhO2qco6IH0y0jJSHnE3_cu9Am1E_xcBSicA--xJnn_ZTHg6rjt"
    "ww5J0K2IREuGlkkUFM6KhslunIyKJpUzdiEUZuRp-sDx5teL5ItEGNWkAc_cdC3iT2RPySRgHUxPyNeZD_5ZDNIuknswI"
    "uNpm1C5lFLmticTcvS_1YTi0wNetSKOPAJ_btcNRuxGrtYi1LiyPs6_DsxTxsuFBIXrJ2ErPYwdYn1OZczesMneo6lQ4c"
    "al9j8wXQtFccifBJs2amA37nm6nkfyKdOikCWyGexjMgJwGIjh4D21Xcu0LDP9g";

// RFC 7638 §3.1: the example RSA key and its thumbprint.
// {"kty": "RSA", "alg": "RS256", "kid": "2011-04-29", "e": "AQAB", "n": kRfc7638N}
inline constexpr const char* kRfc7638N =
    "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_B"
    "JECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_F"
    "DW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4"
    "vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw";
inline constexpr const char* kRfc7638Thumbprint = "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs";

// RFC 8037 Appendix A.1-A.3: an Ed25519 seed (`d`), its public key and its thumbprint.
inline constexpr const char* kRfc8037Seed = "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A";
inline constexpr const char* kRfc8037X = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
inline constexpr const char* kRfc8037Thumbprint = "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k";

}  // namespace skillnode::node::jose::vectors

#endif  // SKILLNODE_TESTS_NODE_JOSE_JOSE_VECTORS_H_
