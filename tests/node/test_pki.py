"""Certificates for tests, made with the openssl CLI as an operator would (docs/security.md):
a root CA, an intermediate "SkillCenter CA" under it, leaves for agents and nodes, and a
foreign root with a leaf of its own."""
import os
import subprocess

EXTENSIONS = ("[ca]\nbasicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n"
              "[leaf]\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n"
              "[server]\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n"
              "extendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n")


def openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


class Pki:
    def __init__(self, directory):
        self.dir = directory
        os.makedirs(directory, exist_ok=True)
        self.ext = os.path.join(directory, "ext.cnf")
        with open(self.ext, "w") as f:
            f.write(EXTENSIONS)
        for name, cn, issuer, section in (("root", "Root CA", None, "ca"),
                                          ("inter", "SkillCenter CA", "root", "ca"),
                                          ("agent", "agent-001", "inter", "leaf"),
                                          ("foreign", "Foreign CA", None, "ca"),
                                          ("stranger", "agent-002", "foreign", "leaf")):
            self.key(name)
            self.issue(name, cn, issuer, section)

    def path(self, name):
        return os.path.join(self.dir, name)

    def key(self, name):
        openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", f"{name}.key",
                cwd=self.dir)

    def issue(self, name, cn, issuer, section="leaf"):
        """name.pem for name.key (made by key()), CN = cn, signed by issuer (None: itself)."""
        openssl("req", "-new", "-key", f"{name}.key", "-subj", f"/CN={cn}", "-out", f"{name}.csr",
                cwd=self.dir)
        self.sign_request(f"{name}.csr", f"{name}.pem", issuer, section, self_key=f"{name}.key")

    def sign_request(self, csr, out, issuer="inter", section="leaf", self_key=None):
        """Signs a PEM certificate request (a path) as `issuer`; writes `out`."""
        args = ["x509", "-req", "-in", csr, "-days", "30", "-out", out, "-extfile", self.ext,
                "-extensions", section]
        args += (["-CA", f"{issuer}.pem", "-CAkey", f"{issuer}.key", "-CAcreateserial"]
                 if issuer else ["-signkey", self_key])
        openssl(*args, cwd=self.dir)

    def server(self, name, issuer="root"):
        """name.key and name.pem: an HTTPS server certificate for 127.0.0.1 and localhost
        (subjectAltName), signed by `issuer`; returns (certificate path, key path)."""
        self.key(name)
        self.issue(name, "127.0.0.1", issuer, "server")
        return self.path(f"{name}.pem"), self.path(f"{name}.key")

    def chain(self, name, *others):
        """name-chain.pem: name.pem then the others' certificates; returns its path."""
        out = self.path(f"{name}-chain.pem")
        with open(out, "w") as f:
            for part in (name,) + others:
                with open(self.path(f"{part}.pem")) as pem:
                    f.write(pem.read())
        return out
