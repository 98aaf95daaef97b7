#!/usr/bin/env python3
"""[netns] A SKILL.md folder's bytes fetched by digest from other nodes, on four hosts in
network namespaces on one bridge.

Host A registers a folder (a SKILL.md over 300 KiB: a BOM, CRLF and LF lines, CJK, emoji;
scripts/run.sh, references/notes.md, and incompressible assets that make the archive about
8.1 MB, near the 8 MiB folder limit) with `skillnode register --skill-dir`. Every HTTP API
listens on 127.0.0.1 inside its namespace, so no other host can reach A's API: the bytes travel
only over the DHT's UDP socket. Checks:
1. B gets skill.md (X-Skillnode-Source network, X-Skillnode-Holder A's id, the exact bytes),
   then again from its cache (source cache), and /download, whose SHA-256 is the archive A
   serves; B's copy is in <dataDir>/blobs/cache/<sha256>.
2. One byte in the middle of B's cached SKILL.md is flipped (same size). C, tried on B first
   (a node that is not the publisher goes first), rejects B's corrupt bytes and gets the exact
   bytes from A; C's metrics count the corrupt holder.
3. With nftables dropping 10 % of the frames the bridge forwards, D (nothing cached) gets
   skill.md and /download byte for byte.
4. A second folder whose blob is corrupted on A's disk, its only holder: B's fetch answers
   502 FETCH_FAILED in the API's error shape, naming A.
5. SIGTERM ends every node with status 0, no sanitizer report in any node's log.

Skipped (exit 77) with the reason when not root or when namespaces cannot be made.
Run: SKILLNODE=build/test/node/skillnode python3 tests/node/skillmd/fetch_netns_test.py
"""
import hashlib
import io
import json
import os
import random
import re
import sys
import tarfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from netns_lab import Lab, LabNodes, sh  # noqa: E402
from skillnode_harness import Node, run, temp_dir, wait_for  # noqa: E402

HOSTS = 4
A, B, C, D = range(HOSTS)
NAMES = "ABCD"
PORT = 6881
HTTP_PORT = 7070
API = f"http://127.0.0.1:{HTTP_PORT}"
# Registrations must outlive the test without heartbeats.
# The upload of a folder near the 8 MiB archive limit needs a larger body than the default.
CONFIG = """
node:
  http: {maxBodyBytes: 9437184}
discovery:
  healthCheck:
    heartbeatInterval: 60000
    timeout: 600000
"""
SKILL = "netns-fetch-large"
BROKEN = "netns-fetch-broken"
SKILL_MD_BYTES_MIN = 330 * 1024  # over 300 KiB, under the 512 KiB limit
ASSET_BYTES = 3_880_000  # two of them: an archive of about 8.1 MB, under the 8 MiB limit
LOSS_PERCENT = 10
LOSS_TABLE = "skillnode_loss"
LOG_TAIL_LINES = 80

lab = Lab("snf", HOSTS, 204)
lab_nodes = LabNodes(lab, LOG_TAIL_LINES)
nodes, expect = lab_nodes.nodes, lab_nodes.expect


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def skill_md():
    """A SKILL.md over 300 KiB: a BOM, LF front matter, a body of CRLF and LF lines with CJK,
    emoji (outside the BMP, a ZWJ sequence) and trailing whitespace; numbered lines, so any
    chunk served out of place changes the bytes."""
    rng = random.Random(4242)
    words = ["fetch", "digest", "holder", "chunk", "跨命名空间", "日本語のテキスト", "한국어 문장",
             "中文内容", "🚀", "🧩", "👩\u200d💻", "🌏", "ünïcödé", "SHA-256", "ustar", "—"]
    text = ("\ufeff---\n"
            f"name: {SKILL}\n"
            "description: A large SKILL.md fetched by digest across network namespaces "
            "(跨命名空间获取 🌐). Use when testing the blob fetch.\n"
            "metadata:\n"
            "  author: \"测试者 🧪\"\n"
            "---\n"
            "# 大きなスキル / 큰 스킬 / 大技能 🐘\r\n\r\n")
    out = text.encode()
    i = 0
    while len(out) < SKILL_MD_BYTES_MIN:
        line = f"{i:06d} " + " ".join(rng.choice(words) for _ in range(rng.randint(4, 14)))
        if i % 7 == 0:
            line += "   "
        out += (line + ("\r\n" if i % 3 == 0 else "\n")).encode()
        i += 1
    return out


def write_folder(root, name, files):
    """Writes {relative path: (bytes, executable)} under root/name; returns the folder."""
    folder = os.path.join(root, name)
    for rel, (data, executable) in files.items():
        path = os.path.join(folder, *rel.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        os.chmod(path, 0o755 if executable else 0o644)
    return folder


def fetch(i, path, max_time=30):
    """(status, body bytes, headers with lower-case names) of GET path on host i's own node,
    made with curl inside host i."""
    return lab.fetch(i, API + path, max_time=max_time)


def as_json(body):
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None


def metric(i, name, labels=""):
    """The sum of host i's samples of metric `name` whose label set holds `labels`."""
    result = lab.run(i, "curl", "-s", "-m", "5", f"{API}/metrics")
    total = 0.0
    for line in result.stdout.splitlines():
        if line.startswith("#") or " " not in line:
            continue
        sample, _, value = line.rpartition(" ")
        if sample.split("{", 1)[0] == name and labels in sample:
            total += float(value)
    return total


def blob_metrics(i):
    """Host i's skillnode_blob_* samples on one line, for a failed check."""
    result = lab.run(i, "curl", "-s", "-m", "5", f"{API}/metrics")
    return "; ".join(line for line in result.stdout.splitlines()
                     if line.startswith("skillnode_blob_"))


def node_id(i):
    status, info = lab.curl_json(i, f"{API}/api/node")
    return info["id"].lower() if status == 200 and info else None


def show(status, body, headers):
    """A short description of an answer, for a failed check."""
    keep = {k: v for k, v in headers.items() if k.startswith("x-skillnode") or k == "etag"}
    return f"status {status}, {len(body)} bytes, {keep}, {body[:300]!r}"


def start_nodes():
    for i in range(HOSTS):
        args = ["--port", str(PORT), "--http", f"127.0.0.1:{HTTP_PORT}"]
        if i != A:
            args += ["--bootstrap", f"{lab.address(A)}:{PORT}"]
        node = Node(f"fetch-{NAMES[i]}", args=args, config=CONFIG, prefix=lab.prefix_of(i),
                    data_dir=temp_dir(f"skillnode-fetch-{NAMES[i]}-"))
        node.start()
        nodes.append(node)
    joined = wait_for(lambda: all((lab.curl_json(i, f"{API}/api/node")[1] or {})
                                  .get("routingTable", {}).get("contacts", 0) >= HOSTS - 1
                                  for i in range(HOSTS)), 30, interval=0.3)
    expect(joined, f"all {HOSTS} nodes joined through A and know each other")


def register(folder):
    result = run(["register", "--http", f"127.0.0.1:{HTTP_PORT}", "--skill-dir", folder,
                  "--agent", "agent-fetch", "--skill-version", "1.0.0", "--type", "tool-skill",
                  "--endpoint", f"http://{lab.address(A)}:9/skill", "-C", "fetch-test"],
                 timeout=60, prefix=lab.prefix_of(A))
    name = os.path.basename(folder)
    expect(result.returncode == 0 and result.stdout.startswith("SUCCESS: " + name),
           f"skillnode register --skill-dir registers {name} on A", result.stdout + result.stderr)


def record_visible(i, skill):
    return wait_for(lambda: lab.curl_json(i, f"{API}/api/skills/{skill}")[0] == 200, 20,
                    interval=0.3)


def no_route_to_a_api():
    result = lab.run(C, "curl", "-sS", "-m", "5", "-o", "/dev/null", "-w", "%{http_code}",
                     f"http://{lab.address(A)}:{HTTP_PORT}/health")
    expect(result.returncode != 0 and result.stdout.strip() == "000",
           f"C cannot reach A's HTTP API at {lab.address(A)}:{HTTP_PORT} (curl exit "
           f"{result.returncode}: {result.stderr.strip()})", result.stdout)
    status, _ = lab.curl_json(C, f"{API}/health")
    expect(status == 200, "C's own API answers on 127.0.0.1 inside C", str(status))


def archive_files(archive):
    """{path: (bytes, executable)} of a tar; None when it is not one."""
    try:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            return {m.name: (tar.extractfile(m).read(), m.mode & 0o111 != 0)
                    for m in tar.getmembers() if m.isfile()}
    except tarfile.TarError:
        return None


def from_publisher_and_b(ids, md, files):
    """Step 1: A serves its own bytes; B fetches them over the network, then from its cache."""
    status, body, headers = fetch(A, f"/api/skills/{SKILL}/skill.md")
    expect(status == 200 and body == md and headers.get("x-skillnode-source") == "local",
           "A serves its own SKILL.md (X-Skillnode-Source: local)", show(status, body, headers))
    status, archive_a, headers = fetch(A, f"/api/skills/{SKILL}/download")
    archive_sha = sha256(archive_a)
    expect(status == 200 and headers.get("etag") == f'"{archive_sha}"' and
           headers.get("x-skillnode-source") == "local" and archive_files(archive_a) == files,
           f"A serves the folder's archive ({len(archive_a)} bytes, unpacks to the folder)",
           show(status, archive_a, headers))

    status, body, headers = fetch(B, f"/api/skills/{SKILL}/skill.md")
    expect(status == 200 and body == md,
           f"B gets SKILL.md byte for byte ({len(md)} bytes) over the DHT",
           show(status, body, headers))
    expect(headers.get("x-skillnode-source") == "network" and
           headers.get("x-skillnode-holder", "").lower() == ids[A] and
           headers.get("etag") == f'"{sha256(md)}"',
           "B's answer: X-Skillnode-Source network, X-Skillnode-Holder A's id, ETag the SHA-256",
           f"{headers} (A is {ids[A]})")
    # The copy is announced to the directory nodes of its key: the three others, here.
    announced = wait_for(lambda: metric(B, "skillnode_blob_announcements_total") >= HOSTS - 1,
                         15, interval=0.2)
    expect(announced, f"B announces its cached copy to the other {HOSTS - 1} nodes "
           f"(skillnode_blob_announcements_total "
           f"{metric(B, 'skillnode_blob_announcements_total'):g})")
    status, body, headers = fetch(B, f"/api/skills/{SKILL}/skill.md")
    expect(status == 200 and body == md and headers.get("x-skillnode-source") == "cache",
           "B's second GET is served from its cache (X-Skillnode-Source: cache)",
           show(status, body, headers))
    cached = os.path.join(nodes[B].data_dir, "blobs", "cache", sha256(md))
    on_disk = open(cached, "rb").read() if os.path.exists(cached) else None
    expect(on_disk == md, "B's copy is <dataDir>/blobs/cache/<sha256>, the exact bytes", cached)

    status, archive_b, headers = fetch(B, f"/api/skills/{SKILL}/download")
    expect(status == 200 and sha256(archive_b) == archive_sha and
           headers.get("etag") == f'"{archive_sha}"',
           "B's /download has the SHA-256 of the archive A serves", show(status, b"", headers))
    expect(headers.get("x-skillnode-source") == "network" and
           headers.get("x-skillnode-holder", "").lower() == ids[A],
           "B's /download came from the network, from A", str(headers))
    expect(metric(A, "skillnode_blob_chunks_served_total") > 0,
           "A's metrics count the chunks it served")
    return archive_sha, cached


def past_corrupt_holder(ids, md, cached):
    """Step 2: B's cached copy is corrupt; C bypasses B and gets the bytes from A."""
    if not os.path.exists(cached):
        expect(False, "B's cached copy exists, to be corrupted", cached)
        return
    size = os.path.getsize(cached)
    with open(cached, "r+b") as f:
        f.seek(size // 2)
        byte = f.read(1)
        f.seek(size // 2)
        f.write(bytes([byte[0] ^ 0xFF]))
    with open(cached, "rb") as f:
        corrupt = f.read()
    expect(len(corrupt) == size and sha256(corrupt) != sha256(md),
           f"one byte in the middle of B's cached SKILL.md is flipped (offset {size // 2})")
    status, body, headers = fetch(C, f"/api/skills/{SKILL}/skill.md")
    expect(status == 200 and body == md,
           "C gets SKILL.md byte for byte although B holds a corrupt copy",
           show(status, body, headers))
    expect(headers.get("x-skillnode-source") == "network" and
           headers.get("x-skillnode-holder", "").lower() == ids[A],
           "C's bytes came from A (B failed the digest check and was bypassed)",
           f"{headers} (A is {ids[A]}, B is {ids[B]})")
    corrupt_count = wait_for(lambda: metric(C, "skillnode_blob_holder_failures_total",
                                            'reason="corrupt"'), 5, interval=0.2)
    expect(corrupt_count >= 1,
           f"C's metrics count the corrupt holder (reason=\"corrupt\" {corrupt_count:g})",
           " | ".join(f"{NAMES[i]}: {blob_metrics(i)}" for i in range(HOSTS)))
    expect(metric(C, "skillnode_blob_fetches_total", 'outcome="ok"') >= 1,
           "C's metrics count an ok fetch")


def nft_bridge(*args, input_text=None):
    return sh("ip", "netns", "exec", lab.bridge_ns, "nft", *args, check_rc=False,
              input_text=input_text)


def loss_dropped():
    listing = nft_bridge("list", "table", "bridge", LOSS_TABLE).stdout
    match = re.search(r"counter packets (\d+)", listing)
    return int(match.group(1)) if match else -1


def under_loss(md, archive_sha):
    """Step 3: D, with nothing cached, fetches through a bridge that drops 10 % of frames."""
    rules = (f"table bridge {LOSS_TABLE} {{\n"
             "  chain forward {\n"
             "    type filter hook forward priority 0; policy accept;\n"
             f"    numgen random mod 100 < {LOSS_PERCENT} counter drop\n"
             "  }\n"
             "}\n")
    added = nft_bridge("-f", "-", input_text=rules)
    if not expect(added.returncode == 0,
                  f"nftables drops {LOSS_PERCENT} % of the frames the bridge forwards",
                  added.stderr):
        return
    try:
        started = time.monotonic()
        status, body, headers = fetch(D, f"/api/skills/{SKILL}/skill.md", max_time=120)
        expect(status == 200 and body == md,
               f"under {LOSS_PERCENT} % loss D gets SKILL.md byte for byte",
               show(status, body, headers))
        status, archive, headers = fetch(D, f"/api/skills/{SKILL}/download", max_time=120)
        expect(status == 200 and sha256(archive) == archive_sha,
               f"under {LOSS_PERCENT} % loss D gets the archive byte for byte",
               show(status, archive if status != 200 else b"", headers))
        print(f"D's two fetches under loss took {time.monotonic() - started:.1f} s", flush=True)
        dropped = loss_dropped()
        expect(dropped > 0, f"the loss rule dropped frames meanwhile ({dropped})")
    finally:
        removed = nft_bridge("delete", "table", "bridge", LOSS_TABLE)
        expect(removed.returncode == 0, "the loss rule is removed", removed.stderr)


def all_holders_fail(work, ids):
    """Step 4: the only holder (A) has a corrupt blob: 502 FETCH_FAILED naming A."""
    md = (f"---\nname: {BROKEN}\ndescription: A SKILL.md whose only copy is corrupt.\n---\n"
          "# Broken\n\n" + "The bytes on A's disk are damaged after registration.\n" * 200)
    digest = sha256(md.encode())
    folder = write_folder(work, BROKEN, {"SKILL.md": (md.encode(), False)})
    register(folder)
    blob = os.path.join(nodes[A].data_dir, "blobs", digest)
    expect(os.path.exists(blob), "A keeps the SKILL.md in <dataDir>/blobs/<sha256>", blob)
    if not os.path.exists(blob):
        return
    with open(blob, "r+b") as f:
        f.seek(len(md) // 2)
        f.write(b"\0")
    expect(record_visible(B, BROKEN), f"B finds {BROKEN}'s record")
    failed_before = metric(B, "skillnode_blob_fetches_total", 'outcome="failed"')
    status, body, headers = fetch(B, f"/api/skills/{BROKEN}/skill.md", max_time=60)
    answer = as_json(body) or {}
    message = answer.get("message", "") if isinstance(answer.get("message"), str) else ""
    expect(status == 502 and answer.get("error") == "FETCH_FAILED" and message,
           f"every holder failing answers 502 FETCH_FAILED: {message}",
           show(status, body, headers))
    details = answer.get("details") if isinstance(answer.get("details"), dict) else {}
    holders = [h for h in details.get("holders", []) if isinstance(h, dict)]
    expect(lab.address(A) in message and details.get("sha256") == digest and
           any(str(h.get("address", "")).startswith(lab.address(A) + ":") and
               ids[A].startswith(str(h.get("node", "")).lower() or "-") and h.get("reason")
               for h in holders),
           "FETCH_FAILED names A (message, details.holders with node, address and reason) and "
           "the digest", json.dumps(details))
    expect(metric(B, "skillnode_blob_fetches_total", 'outcome="failed"') > failed_before,
           "B's metrics count the failed fetch")


def main():
    lab_nodes.build_for_nodes(tools=("curl", "nft"))
    print(f"made {HOSTS} hosts {lab.subnet}.1-{HOSTS} in namespaces on a bridge", flush=True)
    start_nodes()
    ids = [node_id(i) for i in range(HOSTS)]
    expect(all(ids) and len(set(ids)) == HOSTS, "every node has its own id", str(ids))
    no_route_to_a_api()

    work = temp_dir("skillnode-fetch-folders-")
    md = skill_md()
    files = {"SKILL.md": (md, False),
             "scripts/run.sh": (b"#!/bin/sh\necho \"fetched \xe2\x9c\x93\"\n", True),
             "references/notes.md": ("# Notes 📝\r\n\r\n参考资料 — 참고 자료\n".encode(), False),
             # Incompressible assets that bring the archive near the 8 MiB folder limit
             # (each under the 4 MiB per-file limit).
             "assets/part-1.bin": (random.Random(1).randbytes(ASSET_BYTES), False),
             "assets/part-2.bin": (random.Random(2).randbytes(ASSET_BYTES), False)}
    folder = write_folder(work, SKILL, files)
    print(f"SKILL.md: {len(md)} bytes, SHA-256 {sha256(md)}", flush=True)
    register(folder)
    expect(all(record_visible(i, SKILL) for i in (B, C, D)),
           f"B, C and D find {SKILL}'s record through the DHT")

    archive_sha, cached = from_publisher_and_b(ids, md, files)
    past_corrupt_holder(ids, md, cached)
    under_loss(md, archive_sha)
    all_holders_fail(work, ids)
    lab_nodes.stop_nodes()
    lab_nodes.finish()


if __name__ == "__main__":
    main()
