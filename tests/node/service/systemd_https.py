"""The HTTPS part of systemd_test.py: node.https under the packaged unit, a certificate
renewed with `systemctl reload`, and a broken key refused by the reload."""
import re

from skillnode_harness import check, wait_for
from systemd_container import curl, logged, show

HTTPS = "https://127.0.0.1:7443"
TLS_DIR = "/etc/skillnode-tls"
SUBJECT_RE = re.compile(r"subject: (.*)")


CERT_SCRIPT = r"""set -e
cd {dir}
[ -f ca.pem ] || openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -days 30 -keyout ca.key -out ca.pem -subj "/CN=Test CA" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout new.key \
    -out new.csr -subj "/CN={cn}" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\n' > san.ext
openssl x509 -req -in new.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 30 \
    -extfile san.ext -out new.pem 2>/dev/null
chgrp skillnode new.key && chmod 0640 new.key
{install}
"""


def certificate(c, cn, install="mv new.key node.key && mv new.pem node.pem"):
    """A new key and a certificate for it by the test CA (made at the first call); `install`
    puts them in place. Returns openssl's complaint, '' when all went well."""
    c.run("install", "-d", "-o", "root", "-g", "skillnode", "-m", "0750", TLS_DIR)
    done = c.run("bash", "-c", CERT_SCRIPT.format(dir=TLS_DIR, cn=cn, install=install))
    return "" if done.returncode == 0 else done.stderr or f"exit {done.returncode}"


def served_subject(c):
    rc, _, err = curl(c, HTTPS + "/health", "-v", "--cacert", f"{TLS_DIR}/ca.pem")
    found = SUBJECT_RE.search(err)
    return found.group(1).strip() if rc == 0 and found else None


def https(c):
    error = certificate(c, "first.example")
    check(not error, "a certificate of a test CA, key root:skillnode 0640", error)
    config = (f"node:\n  https:\n    listen: \"127.0.0.1:7443\"\n"
              f"    certFile: {TLS_DIR}/node.pem\n    keyFile: {TLS_DIR}/node.key\n")
    with open(c.path("/etc/skillnode/skillnode.yaml"), "a") as f:
        f.write(config)
    done = c.run("systemctl", "restart", "skillnode")
    check(done.returncode == 0, "systemctl restart with node.https", done.stderr)
    check(wait_for(lambda: served_subject(c) == "CN=first.example", 10),
          "curl --cacert gets /health over HTTPS", str(served_subject(c)))
    before = show(c, "MainPID", "NRestarts")

    error = certificate(c, "second.example")
    check(not error, "a new certificate and key replace the pair", error)
    done = c.run("systemctl", "reload", "skillnode")
    check(done.returncode == 0, "systemctl reload skillnode succeeds",
          done.stderr + c.run("journalctl", "-u", "skillnode", "-n", "8", "--no-pager").stdout)
    check(wait_for(lambda: served_subject(c) == "CN=second.example", 10),
          "after the reload the new certificate is served", str(served_subject(c)))
    after = show(c, "MainPID", "NRestarts", "ActiveState")
    check(after.get("ActiveState") == "active" and after.get("MainPID") == before.get("MainPID")
          and after.get("NRestarts") == before.get("NRestarts"),
          "the reload kept the main process (no restart)", f"{before} -> {after}")

    c.run("cp", "-p", f"{TLS_DIR}/node.key", f"{TLS_DIR}/good.key")
    error = certificate(c, "third.example", "mv new.key node.key")
    check(not error, "a key that does not match the certificate replaces the key", error)
    c.run("systemctl", "reload", "skillnode")
    refused = wait_for(lambda: logged(c, "configuration reload refused"), 10)
    check(refused and refused[-1].get("PRIORITY") == "3",
          "the reload is refused and logged at priority 3 (error)", str(refused[-1:]))
    check(served_subject(c) == "CN=second.example" and show(c, "ActiveState").get(
        "ActiveState") == "active", "the old certificate is still served")
    c.run("mv", f"{TLS_DIR}/good.key", f"{TLS_DIR}/node.key")
