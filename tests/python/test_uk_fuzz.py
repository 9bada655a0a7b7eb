"""Fuzz the user-level kernel (uk/) through its mailbox, without QEMU: a fake guest RAM file
holds the mailbox and one process's Sv39 tables; random and malformed requests (bad ops,
partitions, address spaces, pointers inside and outside the process, lengths, paths with
`..`, absolute paths, symlinks out of the sandbox, unterminated strings, UDP sockets whose
datagrams go nowhere: port 9 of the loopback or invalid ports) go straight into the
request rings. The UK must survive, answer every request it does not park, and change
nothing outside the sandbox and outside the process's writable pages.

UK_FUZZ_REQUESTS sets the number of requests (default 100,000; docs/proxy-kernel.md)."""

from __future__ import annotations

import hashlib
import mmap
import os
import random
import struct
import subprocess
import time
from pathlib import Path

from partita.subsys.uk.launch import build_uk

RAM_BASE = 0x80000000
RAM_BYTES = 4 << 20
AREA = RAM_BASE + 0x1000
AREA_SIZE = 128 + 8 * 1856
ROOT = RAM_BASE + 0x20000  # Sv39 root, then level 1 and level 0 tables
USER_VA = 0x100000000
USER_PA = RAM_BASE + 0x100000
RW_PAGES, RO_PAGES = 6, 2  # user pages: read/write, then read-only
KERN_PA = RAM_BASE + 0x200000  # mapped without U: never the UK's to touch
MAGIC, VERSION = 0x314B55617469747A, 1
SLOTS = 16
OPS = 15  # PT_UK_OP_COUNT
REQ = struct.Struct("<IHHIIQ5Q")
REP = struct.Struct("<IHHIIqQ")
N = int(os.environ.get("UK_FUZZ_REQUESTS", "100000"))


def chan(h: int) -> int:
    return AREA - RAM_BASE + 128 + h * 1856


def pte(pa: int, flags: int) -> int:
    return ((pa >> 12) << 10) | flags


def build_ram(path: Path) -> None:
    with open(path, "wb") as f:
        f.truncate(RAM_BYTES)
    with open(path, "r+b") as f, mmap.mmap(f.fileno(), 0) as m:
        struct.pack_into("<QII", m, AREA - RAM_BASE, MAGIC, VERSION, 2)
        l1, l0 = ROOT + 0x1000, ROOT + 0x2000
        struct.pack_into("<Q", m, ROOT - RAM_BASE + 8 * ((USER_VA >> 30) & 511), pte(l1, 1))
        struct.pack_into("<Q", m, l1 - RAM_BASE, pte(l0, 1))
        for i in range(RW_PAGES + RO_PAGES):
            flags = 0x1 | 0x2 | 0x10 | 0x40 | 0x80 | (0x4 if i < RW_PAGES else 0)
            struct.pack_into("<Q", m, l0 - RAM_BASE + 8 * i, pte(USER_PA + i * 4096, flags))
        # a kernel page (no U) right after the user pages, and a bad superpage entry
        struct.pack_into("<Q", m, l0 - RAM_BASE + 8 * (RW_PAGES + RO_PAGES), pte(KERN_PA, 0xC7))
        struct.pack_into("<Q", m, l1 - RAM_BASE + 8, pte(RAM_BASE + 0x1000, 0x17))
        for i in range(64):  # recognisable contents everywhere else
            m[KERN_PA - RAM_BASE + i * 64: KERN_PA - RAM_BASE + i * 64 + 64] = bytes([0xA5]) * 64


SATP = (8 << 60) | (1 << 44) | (ROOT >> 12)
PATHS = [b"f1", b"d/f2", b"../escape", b"/etc/passwd", b"link/x", b"filelink", b"a/../../b",
         b"d/../../x", b".", b"..", b"d", b"", b"link", b"x" * 300, b"ok/../f1", b"fifo"]


def rand_addr(rng: random.Random) -> int:
    k = rng.randrange(8)
    if k < 4:  # inside the process
        return USER_VA + rng.randrange((RW_PAGES + RO_PAGES) * 4096)
    if k == 4:
        return USER_VA + (RW_PAGES + RO_PAGES) * 4096 + rng.randrange(4096)  # the kernel page
    if k == 5:
        return rng.choice([0, RAM_BASE, KERN_PA, 0xFFFFFFFFFFFFF000, 1 << 38, USER_VA - 8])
    if k == 6:
        return USER_VA + (1 << 30) + rng.randrange(1 << 21)  # the bad superpage
    return rng.getrandbits(64)


def rand_len(rng: random.Random) -> int:
    return rng.choice([0, 1, 7, 64, 4095, 4096, 4097, 8192, 1 << 16, 1 << 20, (1 << 64) - 1,
                       rng.getrandbits(rng.choice([8, 16, 32, 64]))])


def request(rng: random.Random, seq: int, m: mmap.mmap) -> bytes:
    op = rng.randrange(OPS + 3)
    part = rng.choice([1, 1, 1, 2, 63, 64, 65535])
    as_ = rng.choice([SATP, SATP, SATP, 0, rng.getrandbits(64), (8 << 60) | (RAM_BYTES >> 12)])
    args = [rng.getrandbits(64) for _ in range(5)]
    if op in (2, 7, 8, 9):  # a path argument: write one into the process's memory
        p = rng.choice(PATHS) + (b"" if rng.random() < 0.05 else b"\0")
        off = rng.randrange(RW_PAGES * 4096 - len(p)) if rng.random() < 0.9 else \
            RW_PAGES * 4096 - len(p) // 2  # straddles into the read-only pages
        if off + len(p) <= RW_PAGES * 4096:
            m[USER_PA - RAM_BASE + off: USER_PA - RAM_BASE + off + len(p)] = p
        args[0] = USER_VA + off if rng.random() < 0.9 else rand_addr(rng)
        args[1] = rng.choice([0, 1, 2, 0x101, 0x301, 0x401, 0x901, rng.getrandbits(16)]) \
            if op == 2 else rand_addr(rng)
        args[2] = rng.choice([0o644, 0o7777, rng.getrandbits(32)])
    elif op in (3, 4):  # read / write
        args[0] = rng.choice([0, 1, 2, 3, 31, 32, -1 & (2**64 - 1), rng.getrandbits(64)])
        args[1], args[2] = rand_addr(rng), rand_len(rng)
    elif op in (12, 13, 14):  # bind / sendto / recvfrom: a socket, a buffer, a port
        args[0] = rng.randrange(40)
        args[1] = rng.choice([0, 1, 65535, 65536, rng.getrandbits(64)]) if op == 12 \
            else rand_addr(rng)
        args[2] = rand_len(rng)
        # never a real port of the host's: out of range, or 9 (discard), for sendto
        args[3] = rng.choice([0, 9, 65536, 2**64 - 1]) if op == 13 else rand_addr(rng)
    elif op in (5, 6):
        args[0] = rng.randrange(40)
        args[2] = rng.choice([0, 1, 2, 3, rng.getrandbits(64)])
    return REQ.pack(seq, op, part, rng.randrange(1, 200), 1, as_, *args)


def snapshot(d: Path) -> dict[str, bytes]:
    out = {}
    for p in sorted(d.rglob("*")):
        if p.is_file() and not p.is_symlink():
            out[str(p.relative_to(d))] = hashlib.sha256(p.read_bytes()).digest()
        else:
            out[str(p.relative_to(d))] = b"link" if p.is_symlink() else b"dir"
    return out


def test_uk_survives_malformed_requests(tmp_path: Path) -> None:
    uk = build_uk()
    ram = tmp_path.parent / f"{tmp_path.name}-ram.bin"  # beside, not inside, the checked tree
    box, outside = tmp_path / "box", tmp_path / "outside"
    box.mkdir()
    outside.mkdir()
    (outside / "secret").write_text("secret")
    (box / "d").mkdir()
    (box / "link").symlink_to(outside)
    (box / "filelink").symlink_to(outside / "secret")
    os.mkfifo(box / "fifo")  # opening it must be refused, not block the UK
    build_ram(ram)
    before_outside = snapshot(tmp_path)
    with open(ram, "rb") as f:
        ram0 = f.read()
    proc = subprocess.Popen([str(uk), "--area", hex(AREA), "--ram", str(ram), "--sandbox",
                             str(box), "--poll", "busy"], stderr=subprocess.PIPE)
    rng = random.Random(1234)
    sent = replied = 0
    try:
        with open(ram, "r+b") as f, mmap.mmap(f.fileno(), 0) as m:
            deadline = time.monotonic() + 10
            while struct.unpack_from("<I", m, AREA - RAM_BASE + 32)[0] != 1:
                assert time.monotonic() < deadline, "the UK never started serving"
                time.sleep(0.01)
            epoch = struct.unpack_from("<I", m, AREA - RAM_BASE + 36)[0]
            assert epoch == 1
            c = chan(0)
            seq = 0
            while sent < N:
                head = struct.unpack_from("<I", m, c)[0]
                tail = struct.unpack_from("<I", m, c + 64)[0]
                for _ in range(SLOTS - (head - tail)):
                    seq += 1
                    m[c + 128 + (head % SLOTS) * 64: c + 128 + (head % SLOTS) * 64 + 64] = \
                        request(rng, seq, m)
                    head += 1
                    sent += 1
                struct.pack_into("<I", m, c, head & 0xFFFFFFFF)
                # collect replies (some requests park: reads of pipes nobody writes)
                rb = c + 128 + SLOTS * 64
                rh = struct.unpack_from("<I", m, rb)[0]
                rt = struct.unpack_from("<I", m, rb + 64)[0]
                for i in range(rt, rh):
                    s, _op, _part, _tid, _pad, _res, _val = REP.unpack_from(
                        m, rb + 128 + (i % SLOTS) * 32)
                    assert 0 < s <= seq
                    replied += 1
                struct.pack_into("<I", m, rb + 64, rh)
                assert proc.poll() is None, f"the UK died: {proc.stderr.read().decode()}"
                if head - struct.unpack_from("<I", m, c + 64)[0] >= SLOTS:
                    time.sleep(0)  # let the UK catch up
            deadline = time.monotonic() + 30
            while struct.unpack_from("<Q", m, AREA - RAM_BASE + 48)[0] < N and \
                    time.monotonic() < deadline:
                time.sleep(0.05)
            served, refused = struct.unpack_from("<QQ", m, AREA - RAM_BASE + 48)
            ring = (struct.unpack_from("<I", m, c)[0], struct.unpack_from("<I", m, c + 64)[0],
                    struct.unpack_from("<Q", m, AREA - RAM_BASE + 40)[0], proc.poll())
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err.decode()
    # every request was taken from the ring; all but those still parked were answered. A
    # request may stay parked for good (a pipe read nobody writes, a UDP receive whose
    # datagram the host's loopback has not delivered yet: timing), at most the UK's 64 slots
    # (uk/services.c PARKED)
    assert ring[0] == ring[1], ring
    assert N - 64 <= served <= N, (served, N, ring)
    assert replied >= N * 9 // 10 and refused > N // 10, (replied, refused)
    # nothing outside the sandbox changed, and only the process's writable pages and the
    # mailbox changed in guest memory
    after = snapshot(tmp_path)
    assert {k: v for k, v in after.items() if not k.startswith("box")} == \
        {k: v for k, v in before_outside.items() if not k.startswith("box")}
    with open(ram, "rb") as f:
        ram1 = f.read()
    writable = [(AREA - RAM_BASE, AREA - RAM_BASE + AREA_SIZE),
                (USER_PA - RAM_BASE, USER_PA - RAM_BASE + RW_PAGES * 4096)]
    pos = 0
    for lo, hi in writable:
        assert ram0[pos:lo] == ram1[pos:lo], f"UK wrote outside the process at 0x{pos:x}.."
        pos = hi
    assert ram0[pos:] == ram1[pos:]
