#!/usr/bin/env python3
"""A LAN agent for tests: what a program that is not a skillnode (the seed's Java agent, a
script) does on the skill-discovery LAN. Run inside a host's network namespace.

  lan_client.py --text 'SKILL_REGISTER:...;'      send one datagram to the group and print, as
                                                    one JSON list, every datagram that comes back
                                                    within --wait-ms (sender and text)
  --sign KEY.pem                                    sign it first, as Java's SHA256withECDSA
                                                    does (openssl dgst -sha256 -sign: DER, base64)
  --chain LEAF.pem,INTER.pem                        answer a CHALLENGE with this chain, signed
                                                    with KEY.pem (spec section 10.3)
  --until-ack                                       stop at the first SKILL_REGISTER_ACK
"""
import argparse
import base64
import json
import socket
import subprocess
import sys
import time


def sign(key, text):
    der = subprocess.run(["openssl", "dgst", "-sha256", "-sign", key], input=text.encode(),
                         capture_output=True, check=True).stdout
    return base64.b64encode(der).decode()


def der_chain(paths):
    parts = []
    for path in paths.split(","):
        der = subprocess.run(["openssl", "x509", "-in", path, "-outform", "DER"],
                             capture_output=True, check=True).stdout
        parts.append(base64.b64encode(der).decode())
    return ",".join(parts)


def signed(text, key):
    """`text` ends with its (empty) signature field: fill it in."""
    assert text.endswith(";"), "the datagram must end with its empty signature field"
    body = text[:-1]
    return body + ";" + sign(key, body)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--group", default="224.0.0.1:54321")
    parser.add_argument("--to", help="send unicast to HOST:PORT instead of the group")
    parser.add_argument("--text", required=True, action="append")
    parser.add_argument("--wait-ms", type=int, default=1500)
    parser.add_argument("--sign")
    parser.add_argument("--chain")
    parser.add_argument("--until-ack", action="store_true")
    args = parser.parse_args()
    host, port = (args.to or args.group).rsplit(":", 1)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
    sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
    sock.bind(("0.0.0.0", 0))
    for text in args.text:
        if "{now}" in text:
            text = text.replace("{now}", str(int(time.time() * 1000)))
        if args.sign:
            text = signed(text, args.sign)
        sock.sendto(text.encode(), (host, int(port)))
    received = []
    deadline = time.monotonic() + args.wait_ms / 1000
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        sock.settimeout(left)
        try:
            data, sender = sock.recvfrom(65536)
        except socket.timeout:
            break
        text = data.decode(errors="replace")
        received.append({"from": f"{sender[0]}:{sender[1]}", "text": text})
        if text.startswith("CHALLENGE:") and args.chain and args.sign:
            agent, nonce = text[len("CHALLENGE:"):].split(";")[:2]
            now = int(time.time() * 1000)
            answer = signed(f"CHALLENGE_RESPONSE:{agent};{nonce};{der_chain(args.chain)};{now};",
                            args.sign)
            sock.sendto(answer.encode(), sender)
        if text.startswith("SKILL_REGISTER_ACK:") and args.until_ack:
            break
    json.dump(received, sys.stdout)
    print()


if __name__ == "__main__":
    main()
