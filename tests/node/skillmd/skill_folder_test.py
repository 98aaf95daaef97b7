#!/usr/bin/env python3
"""[uv] Skills registered from a SKILL.md folder, through the real binary on 127.0.0.1.

Every fixture folder (tests/fixtures/skills) is registered with `skillnode register
--skill-dir` and, as other agents, over HTTP with a tar made here (other mtimes, owners, order
and permission bits) and with the same tar gzip-compressed: all three registrations carry the
same digests. GET /api/skills/{id} shows
them; curl fetches /skill.md (compared byte for byte with the file: CRLF, BOM, CJK, emoji, over
100 KiB) and /download (its SHA-256 is the record's; unpacked, it is the folder). Refusals:
no front matter, malformed YAML (with the line), an empty description, an oversized SKILL.md,
a path escape and a link in the upload, a link in a folder given to the CLI; each is a 400 in
the API's error shape and changes nothing stored. A skill without a folder answers 404; a skill
known only from the network is fetched from its publisher's node over the DHT (SKILL.md and
archive byte for byte, then from B's cache). After a restart the bytes are still in
<dataDir>/blobs, a re-sent registration serves them again, and a blob corrupted on disk is
never served (the re-sent registration replaces it).
Run: SKILLNODE=build/test/node/skillnode python3 tests/node/skillmd/skill_folder_test.py
"""
import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import skillnode_harness  # noqa: E402
from skillnode_harness import (Node, check, finish, require_binary, run, temp_dir,  # noqa: E402
                               wait_for)

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures",
                        "skills")
# Registrations must outlive the test without heartbeats.
CONFIG = """
node:
  http: {listen: "127.0.0.1:0"}
discovery:
  healthCheck:
    heartbeatInterval: 60000
    timeout: 600000
"""
REGISTRATION = {"version": "1.0.0", "skillType": "tool-skill",
                "endpoint": "http://127.0.0.1:9/skill", "capabilities": "skillmd-test"}


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def fixture_names():
    return sorted(n for n in os.listdir(FIXTURES) if os.path.isdir(os.path.join(FIXTURES, n)))


def folder_files(folder):
    """{relative path: (bytes, executable)} of a folder."""
    out = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            rel = os.path.relpath(path, folder).replace(os.sep, "/")
            with open(path, "rb") as f:
                out[rel] = (f.read(), os.stat(path).st_mode & 0o111 != 0)
    return out


def foreign_tar(files, extra=(), mode="w"):
    """A tar of `files` as some other client might pack it: reversed order, "./" prefixes,
    odd mtimes, owners and permission bits; `extra` is a list of ready TarInfo/bytes pairs;
    `mode` "w:gz" gzip-compresses it."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode, format=tarfile.PAX_FORMAT) as tar:
        for i, (path, (data, executable)) in enumerate(sorted(files.items(), reverse=True)):
            info = tarfile.TarInfo("./" + path)
            info.size = len(data)
            info.mtime = 1600000000 + 977 * i
            info.uid, info.gid, info.uname, info.gname = 1234, 99, "someone", "staff"
            info.mode = 0o750 if executable else 0o600
            tar.addfile(info, io.BytesIO(data))
        for info, data in extra:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return buffer.getvalue()


def raw_get(node, path):
    """(status, body bytes, headers) of GET path on `node`."""
    try:
        with urllib.request.urlopen(node.url + path, timeout=30) as answer:
            return answer.status, answer.read(), dict(answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers)


def post_folder(node, query, body, content_type="application/x-tar"):
    """(status, parsed JSON) of POST /api/skills/folder."""
    url = node.url + "/api/skills/folder?" + urllib.parse.urlencode(query)
    request = urllib.request.Request(url, data=body, method="POST",
                                     headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        text = error.read()
        try:
            return error.code, json.loads(text)
        except json.JSONDecodeError:
            return error.code, None


def curl(url, extra=()):
    """(status, body bytes, headers dict lower-case) with curl."""
    headers_path = os.path.join(temp_dir("skillnode-curl-"), "headers")
    result = subprocess.run(["curl", "-sS", "-D", headers_path, *extra, url],
                            capture_output=True, timeout=20)
    headers, status = {}, 0
    with open(headers_path, "rb") as f:
        for line in f.read().decode("latin-1").split("\r\n"):
            if line.startswith("HTTP/"):
                status = int(line.split()[1])
            elif ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
    return status, result.stdout, headers


def cli_register(node, folder, agent, extra=()):
    return run(["register", "--http", node.http_address(), "--skill-dir", folder,
                "--agent", agent, "--skill-version", "1.0.0", "--type", "tool-skill",
                "--endpoint", "http://127.0.0.1:9/skill", "-C", "skillmd-test", *extra],
               timeout=30)


def check_bytes_served(node, name, what):
    """skill.md and download of `name` on `node` against the fixture and the record."""
    folder = os.path.join(FIXTURES, name)
    with open(os.path.join(folder, "SKILL.md"), "rb") as f:
        skill_md = f.read()
    status, skill = node.get_json(f"/api/skills/{name}")
    providers = (skill or {}).get("providers", [])
    check(status == 200 and len(providers) >= 1 and
          all(p.get("skillMdSha256") == sha256(skill_md) and p.get("skillMdSize") == len(skill_md)
              for p in providers),
          f"{what}: the record of {name} carries SKILL.md's SHA-256 and size",
          f"{status} {json.dumps(skill)[:300]}")
    status, body, headers = curl(f"{node.url}/api/skills/{name}/skill.md")
    check(status == 200 and body == skill_md,
          f"{what}: curl gets {name}/SKILL.md byte for byte ({len(skill_md)} bytes)",
          f"{status} {len(body)} bytes")
    check(headers.get("content-type") == "text/markdown; charset=utf-8" and
          headers.get("etag") == f'"{sha256(skill_md)}"',
          f"{what}: {name}/skill.md is text/markdown with its SHA-256 as ETag", str(headers))
    status, archive, headers = curl(f"{node.url}/api/skills/{name}/download")
    archive_sha = providers[0].get("archiveSha256") if providers else None
    check(status == 200 and sha256(archive) == archive_sha and
          providers[0].get("archiveSize") == len(archive) and
          headers.get("content-type") == "application/x-tar",
          f"{what}: curl gets {name}'s archive, whose SHA-256 and size are the record's",
          f"{status} {len(archive)}")
    if status != 200:
        return archive_sha
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        members = tar.getmembers()
        unpacked = {m.name: (tar.extractfile(m).read(), m.mode & 0o111 != 0) for m in members}
        canonical = all(m.mtime == 0 and m.uid == 0 and m.gid == 0 and m.uname == "" and
                        m.mode in (0o644, 0o755) for m in members)
    check(unpacked == folder_files(folder) and canonical and
          [m.name for m in members] == sorted(m.name for m in members),
          f"{what}: {name}'s archive unpacks to the folder, sorted, mtime 0, uid 0, no names")
    return archive_sha


def check_refused(node, body, query, expect_status, expect_text, what):
    status, answer = post_folder(node, query, body)
    message = (answer or {}).get("message", "")
    check(status == expect_status and answer is not None and
          answer.get("error") == "INVALID" and expect_text in message and
          isinstance(answer.get("details"), dict),
          f"{what} is refused {expect_status}: {message}", f"{status} {answer}")
    return answer


def refusals(node):
    query = {"agentId": "bad-agent", **REGISTRATION}
    ok_md = b"---\nname: refused\ndescription: fine\n---\n"

    def tar_of(files):
        return foreign_tar({p: (d, False) for p, d in files.items()})
    check_refused(node, tar_of({"SKILL.md": b"# no front matter\n"}), query, 400,
                  "SKILL.md line 1: must begin with a YAML front matter block",
                  "a SKILL.md without front matter")
    answer = check_refused(node, tar_of({"SKILL.md": b"---\nname: refused\n"
                                         b"description: [unclosed\nlicense: x\n---\n"}),
                           query, 400, "not valid YAML", "malformed YAML")
    check(answer and answer["details"].get("line", 0) >= 3 and
          answer["message"].startswith(f"SKILL.md line {answer['details'].get('line')}: "),
          "the malformed YAML's refusal names its line", str(answer))
    answer = check_refused(node, tar_of({"SKILL.md": b"---\nname: refused\ndescription: \"\"\n"
                                         b"---\n"}),
                           query, 400, "SKILL.md line 3: description: must be a non-empty string",
                           "an empty description")
    check(answer and answer["details"] == {"field": "description", "file": "SKILL.md", "line": 3,
                                           "status": "INVALID"},
          "the refusal's details name the file, line and field", str(answer))
    check_refused(node, tar_of({"SKILL.md": b"---\nname: Bad Name\ndescription: x\n---\n"}),
                  query, 400, "SKILL.md line 2: name: ", "a name outside the Agent Skills format")
    check_refused(node, tar_of({"SKILL.md": b"---\nname: refused\ndescription: " +
                                "漢".encode() * 1025 + b"\n---\n"}),
                  query, 400, "SKILL.md line 3: description: is 1025 characters, more than 1024",
                  "a description over the Agent Skills format's 1,024 characters")
    check_refused(node, tar_of({"SKILL.md": ok_md + b"x" * (600 * 1024)}), query, 400,
                  "limit for SKILL.md", "a SKILL.md over 512 KiB")
    check_refused(node, tar_of({"README.md": b"no SKILL.md here"}), query, 400,
                  "has no SKILL.md at its top", "a folder without SKILL.md")
    check_refused(node, tar_of({"SKILL.md": ok_md + b"\xff\xfe"}), query, 400,
                  "SKILL.md line 5: is not UTF-8 text", "a SKILL.md that is not UTF-8")
    escape = tarfile.TarInfo("../escape.sh")
    escape.size = 3
    check_refused(node, foreign_tar({"SKILL.md": (ok_md, False)}, [(escape, b"x=1")]), query,
                  400, "a path may not hold '..'", "a path escaping the folder")
    absolute = tarfile.TarInfo("/etc/cron.d/x")
    absolute.size = 1
    check_refused(node, foreign_tar({"SKILL.md": (ok_md, False)}, [(absolute, b"x")]), query,
                  400, "absolute paths are not allowed", "an absolute path")
    link = tarfile.TarInfo("passwd")
    link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
    check_refused(node, foreign_tar({"SKILL.md": (ok_md, False)}, [(link, None)]), query, 400,
                  "links are not allowed", "a symbolic link")
    check_refused(node, b"this is not a tar archive" * 40, query, 400, "archive: ",
                  "a body that is not a tar")
    status, answer = post_folder(node, {**query, "colour": "red"}, tar_of({"SKILL.md": ok_md}))
    check(status == 400 and "colour: is not a known query parameter" in answer.get("message", ""),
          "an unknown query parameter is refused", f"{status} {answer}")
    status, answer = post_folder(node, {k: v for k, v in query.items() if k != "endpoint"},
                                 tar_of({"SKILL.md": ok_md}))
    check(status == 400 and answer["details"].get("field") == "endpoint",
          "a registration without an endpoint is refused naming it", f"{status} {answer}")
    status, _ = node.get_json("/api/skills/refused")
    check(status == 404, "nothing refused was registered", str(status))


def body_bounds(node):
    """The folder route takes bodies up to its archive limit (8 MiB) past the server's 1 MiB
    bound, which every other route keeps."""
    big = os.urandom(3 * 1024 * 1024)  # incompressible: the upload is 3 MiB
    md = b"---\nname: big-folder\ndescription: a folder past the server's body bound\n---\n"
    body = foreign_tar({"SKILL.md": (md, False), "data/blob.bin": (big, False)})
    status, answer = post_folder(node, {"agentId": "big-agent", **REGISTRATION}, body)
    check(status in (200, 201) and (answer or {}).get("status") == "SUCCESS",
          f"a {len(body) // 1024} KiB folder upload is taken with the default body bound",
          f"{status} {str(answer)[:300]}")
    too_big_path = os.path.join(temp_dir("skillnode-too-big-"), "registration.json")
    with open(too_big_path, "w") as f:
        json.dump({"agentId": "json-agent", "skillId": "too-big", **REGISTRATION,
                   "descriptor": {"name": "Too big", "description": "x" * (2 * 1024 * 1024)}}, f)
    status, text, _ = curl(f"{node.url}/api/skills", [
        "-X", "POST", "-H", "Content-Type: application/json", "--data-binary", "@" + too_big_path])
    answer = json.loads(text) if text.startswith(b"{") else None
    check(status == 413 and (answer or {}).get("error") == "BODY_TOO_LARGE",
          "a 2 MiB registration is still refused 413 by the server's bound",
          f"{status} {text[:200]}")
    over = foreign_tar({"SKILL.md": (md, False),
                        "a.bin": (os.urandom(4 * 1024 * 1024 - 1024), False),
                        "b.bin": (os.urandom(4 * 1024 * 1024 + 4096), False)})
    # curl sends the 9 MiB body after "Expect: 100-continue", as clients do for large bodies:
    # the node refuses it from the headers, before a byte of it is sent.
    over_path = os.path.join(temp_dir("skillnode-over-"), "over.tar")
    with open(over_path, "wb") as f:
        f.write(over)
    query = urllib.parse.urlencode({"agentId": "big-agent", **REGISTRATION})
    status, text, _ = curl(f"{node.url}/api/skills/folder?{query}",
                           ["-X", "POST", "-H", "Content-Type: application/x-tar",
                            "--data-binary", "@" + over_path])
    answer = json.loads(text) if text.startswith(b"{") else None
    check(status == 413 and "exceeds 8388608" in (answer or {}).get("message", ""),
          "a folder upload over the 8 MiB archive limit is refused 413 naming the limit",
          f"{status} {text[:200]}")


def cli_refusals(node):
    work = temp_dir("skillnode-skilldir-")
    bad = os.path.join(work, "bad-yaml")
    os.makedirs(bad)
    with open(os.path.join(bad, "SKILL.md"), "wb") as f:
        f.write(b"---\nname: bad-yaml\ndescription: x\n  - broken: [\n---\n")
    result = cli_register(node, bad, "cli-agent")
    check(result.returncode == 1 and "SKILL.md line" in result.stderr and
          "not valid YAML" in result.stderr,
          f"the CLI reports the node's refusal with the line: {result.stderr.strip()}",
          result.stdout + result.stderr)
    linked = os.path.join(work, "linked")
    os.makedirs(linked)
    with open(os.path.join(linked, "SKILL.md"), "wb") as f:
        f.write(b"---\nname: linked\ndescription: x\n---\n")
    os.symlink("/etc/passwd", os.path.join(linked, "passwd"))
    result = cli_register(node, linked, "cli-agent")
    check(result.returncode == 2 and "symbolic links are not allowed" in result.stderr,
          f"the CLI refuses a folder holding a link: {result.stderr.strip()}", result.stderr)
    result = cli_register(node, os.path.join(work, "missing"), "cli-agent")
    check(result.returncode == 2 and "is not a directory" in result.stderr,
          "the CLI refuses a folder that does not exist", result.stderr)


def main():
    require_binary()
    names = fixture_names()
    check(len(names) >= 6, f"{len(names)} fixture folders: {', '.join(names)}")
    a = Node("a", ["--port", "0"], config=CONFIG).start()

    archive_digests = {}
    for name in names:
        folder = os.path.join(FIXTURES, name)
        result = cli_register(a, folder, "cli-agent")
        check(result.returncode == 0 and result.stdout.startswith("SUCCESS: " + name),
              f"skillnode register --skill-dir registers {name}",
              result.stdout + result.stderr)
        status, answer = post_folder(a, {"agentId": "http-agent", **REGISTRATION},
                                     foreign_tar(folder_files(folder)))
        skill = (answer or {}).get("skill", {})
        check(status == 201 and skill.get("skillId") == name and skill.get("agentId") ==
              "http-agent", f"POST /api/skills/folder registers {name} (skillId from its name)",
              f"{status} {answer}")
        gzipped = foreign_tar(folder_files(folder), mode="w:gz")
        status, answer = post_folder(a, {"agentId": "gz-agent", **REGISTRATION}, gzipped,
                                     "application/gzip")
        check(status == 201 and gzipped[:2] == b"\x1f\x8b" and
              (answer or {}).get("skill", {}).get("agentId") == "gz-agent",
              f"POST /api/skills/folder registers {name} from a tar.gz", f"{status} {answer}")
        archive_digests[name] = check_bytes_served(a, name, "registered")
        status, view = a.get_json(f"/api/skills/{name}")
        digests = {p["agentId"]: (p.get("skillMdSha256"), p.get("archiveSha256"))
                   for p in (view or {}).get("providers", [])}
        check(len(digests) == 3 and len(set(digests.values())) == 1,
              f"{name}: the CLI's, the foreign tar's and its tar.gz's registrations have the "
              "same digests", str(digests))

    # The descriptor's description is the front matter's, folded as YAML folds it.
    status, view = a.get_json("/api/skills/multiline-description")
    check(status == 200 and view.get("description", "").startswith(
        "Summarises long documents into a few bullet points. Use when"),
        "the folded description comes from the front matter", str(view)[:300])
    status, view = a.get_json("/api/skills/cjk-emoji")
    check(status == 200 and "🌏" in view.get("description", "") and "한국어" in view["description"],
          "the CJK and emoji description survives", str(view)[:300])

    # Conditional GET, and choosing a provider.
    etag = f'"{sha256(open(os.path.join(FIXTURES, names[0], "SKILL.md"), "rb").read())}"'
    status, body, _ = curl(f"{a.url}/api/skills/{names[0]}/skill.md",
                           ["-H", f"If-None-Match: {etag}"])
    check(status == 304 and body == b"", "If-None-Match with the ETag answers 304", str(status))
    status, _, _ = curl(f"{a.url}/api/skills/{names[0]}/skill.md?agentId=nobody")
    check(status == 404, "a provider that does not offer the skill answers 404", str(status))

    refusals(a)
    body_bounds(a)
    cli_refusals(a)
    for name in names:
        status, body, _ = curl(f"{a.url}/api/skills/{name}/skill.md")
        with open(os.path.join(FIXTURES, name, "SKILL.md"), "rb") as f:
            same = body == f.read()
        check(status == 200 and same, f"{name} is still served after the refusals", str(status))

    # A skill without a folder, an unknown skill.
    status, answer = a.call("POST", "/api/skills", {
        "agentId": "json-agent", "skillId": "no-folder", **REGISTRATION,
        "descriptor": {"name": "No folder", "description": "registered as JSON"}})
    check(status == 201, "a skill registers without a folder", f"{status} {answer}")
    for route in ("skill.md", "download"):
        status, answer = a.get_json(f"/api/skills/no-folder/{route}")
        check(status == 404 and answer and answer["error"] == "DISC_002" and
              "has no SKILL.md" in answer["message"],
              f"{route} of a skill without a folder is 404: {(answer or {}).get('message')}",
              f"{status} {answer}")
    status, answer = a.get_json("/api/skills/never-registered/skill.md")
    check(status == 404 and "no skill with id never-registered" in (answer or {}).get("message", ""),
          "skill.md of an unknown skill is 404", f"{status} {answer}")

    # A skill known only from the network: B finds A's record through the DHT and fetches the
    # bytes from A over the DHT's UDP socket (docs/protocol.md "Blobs"), verified and cached.
    b = Node("b", ["--port", "0", "--bootstrap", f"127.0.0.1:{a.udp_port()}"],
             config=CONFIG).start()
    check(wait_for(lambda: a.contacts() >= 1 and b.contacts() >= 1, 30, 0.1),
          "node B joins A")
    probe = names[0]
    # Published now that B is there, so B holds the record too.
    cli_register(a, os.path.join(FIXTURES, probe), "republish-agent")
    want = open(os.path.join(FIXTURES, probe, "SKILL.md"), "rb").read()

    def on_b(path):
        return raw_get(b, f"/api/skills/{probe}/{path}")
    # B holds the record once A's publish reached it; the first GET then fetches the bytes.
    wait_for(lambda: b.get_json(f"/api/skills/{probe}?agentId=republish-agent")[0] == 200, 15,
             0.2)
    status, body, headers = on_b("skill.md")
    check(status == 200 and body == want and headers.get("X-Skillnode-Source") == "network" and
          headers.get("X-Skillnode-Holder") == a.info()["id"],
          "B fetches A's SKILL.md over the DHT, byte for byte, and names A as the holder",
          f"{status} {headers} {body[:200]!r}")
    status, body, headers = on_b("skill.md")
    check(status == 200 and body == want and headers.get("X-Skillnode-Source") == "cache",
          "B answers from its cache the second time", f"{status} {headers}")
    status, body, headers = on_b("download")
    _, from_a, _ = raw_get(a, f"/api/skills/{probe}/download?agentId=republish-agent")
    check(status == 200 and body == from_a and headers.get("ETag") == f'"{sha256(body)}"',
          "B fetches the folder archive too, identical to A's", f"{status} {headers}")
    cached = os.path.join(b.data_dir, "blobs", "cache", sha256(want))
    check(os.path.isfile(cached) and open(cached, "rb").read() == want,
          "B keeps the fetched SKILL.md in <dataDir>/blobs/cache under its SHA-256", cached)
    b.stop()

    # Restart: the blobs stay in <dataDir>/blobs; a re-sent registration serves them again.
    before = a.info()["skillFolders"]
    code, _ = a.stop()
    check(code == 0, "A stops cleanly", str(code))
    blob_dir = os.path.join(a.data_dir, "blobs")
    held = sorted(n for n in os.listdir(blob_dir) if n != "cache")
    check(len(held) == before["blobs"] and all(archive_digests[n] in held for n in names),
          f"{len(held)} blobs (every archive among them) are on disk after the stop")
    victim = os.path.join(blob_dir, archive_digests[names[-1]])
    with open(victim, "r+b") as f:
        f.write(b"X")  # corrupt one archive while the node is down
    a = Node("a-restarted", ["--port", "0"], data_dir=a.data_dir, config=CONFIG).start()
    after = a.info()["skillFolders"]
    check(after["blobs"] == before["blobs"] and after["bytes"] == before["bytes"],
          "after the restart the node counts the same blobs and bytes", f"{before} {after}")
    for name in names:
        result = cli_register(a, os.path.join(FIXTURES, name), "cli-agent")
        check(result.returncode == 0, f"{name} is registered again after the restart",
              result.stderr)
        check_bytes_served(a, name, "after restart")
    finish()


if __name__ == "__main__":
    try:
        main()
    finally:
        skillnode_harness.cleanup()
