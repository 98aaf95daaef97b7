#!/usr/bin/env python3
"""A learning Ethernet bridge in user space that delays and drops frames, for kernels without
the netem qdisc.

Run inside the bridge namespace of tests/node/cluster/netns_test.py with the names of its veth ports:
    impair_bridge.py --delay-ms 50 --loss 0.02 --seed 7 p0 p1 p2 p3 p4
Every frame a host sends crosses the bridge once, as with `tc netem delay 50ms loss 2%` on
each host's link: it is dropped with probability `loss`, else delivered `delay` later to the
port its destination MAC was learned on, or to every other port (broadcast, unknown). Frames
keep their order per port pair (one fixed delay). Prints "ready" once every port is open, and
runs until killed.

A frame captured from a veth may carry a UDP checksum the kernel left for the (virtual) NIC
to fill in; the kernel bridge keeps that state, a packet socket cannot, so the bridge puts
the real checksum into every UDP datagram (IPv4, and IPv6 without extension headers) it
forwards.
"""
import argparse
import heapq
import random
import select
import socket
import time

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4  # sll_pkttype of frames this host sends (our own forwarding)
FRAME_BYTES_MAX = 65536
QUEUE_FRAMES_MAX = 100000  # frames waiting for their delivery time


def ones_complement_sum(data):
    if len(data) % 2:
        data += b"\0"
    total = sum(int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return total


def with_udp_checksum(frame):
    """The frame with its UDP checksum computed, or as it is when it holds no UDP datagram."""
    ethertype = frame[12:14]
    if ethertype == b"\x08\x00" and len(frame) >= 34 and frame[23] == 17:
        start = 14 + (frame[14] & 0x0F) * 4
        if len(frame) < start + 8:
            return frame
        length = int.from_bytes(frame[start + 4:start + 6], "big")
        pseudo = frame[26:34] + b"\x00\x11" + length.to_bytes(2, "big")
    elif ethertype == b"\x86\xdd" and len(frame) >= 62 and frame[20] == 17:
        start = 54
        length = int.from_bytes(frame[start + 4:start + 6], "big")
        pseudo = frame[22:54] + length.to_bytes(4, "big") + b"\x00\x00\x00\x11"
    else:
        return frame
    if length < 8 or len(frame) < start + length:
        return frame
    udp = bytearray(frame[start:start + length])
    udp[6:8] = b"\0\0"
    checksum = (~ones_complement_sum(pseudo + bytes(udp))) & 0xFFFF
    udp[6:8] = (checksum or 0xFFFF).to_bytes(2, "big")
    return frame[:start] + bytes(udp) + frame[start + length:]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--delay-ms", type=float, required=True)
    parser.add_argument("--loss", type=float, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("ports", nargs="+")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    sockets = {}
    for port in args.ports:
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        s.bind((port, 0))
        s.setblocking(False)
        sockets[s.fileno()] = (port, s)
    by_name = {port: s for port, s in sockets.values()}
    learned = {}  # MAC -> port
    queue = []  # (due, sequence, out port, frame)
    sequence = 0
    dropped = 0
    print("ready", flush=True)
    while True:
        timeout = max(0.0, queue[0][0] - time.monotonic()) if queue else 1.0
        readable, _, _ = select.select(list(sockets), [], [], timeout)
        now = time.monotonic()
        for fd in readable:
            port, s = sockets[fd]
            while True:
                try:
                    frame, address = s.recvfrom(FRAME_BYTES_MAX)
                except BlockingIOError:
                    break
                if address[2] == PACKET_OUTGOING or len(frame) < 14:
                    continue
                learned[frame[6:12]] = port
                if rng.random() < args.loss or len(queue) >= QUEUE_FRAMES_MAX:
                    dropped += 1
                    continue
                frame = with_udp_checksum(frame)
                destination = learned.get(frame[0:6])
                outs = [destination] if destination and destination != port else \
                    [p for p in by_name if p != port]
                for out in outs:
                    sequence += 1
                    heapq.heappush(queue, (now + args.delay_ms / 1000, sequence, out, frame))
        while queue and queue[0][0] <= now:
            _, _, out, frame = heapq.heappop(queue)
            try:
                by_name[out].send(frame)
            except OSError:
                pass  # the port went away (teardown) or its queue is full: a lost frame


if __name__ == "__main__":
    main()
