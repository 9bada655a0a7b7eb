"""Shared fixtures of the host-side SPM tests."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest


@pytest.fixture
def udp_echo() -> Iterator[int]:
    """A local UDP echo server on 127.0.0.1 (stands in for the guest); yields its port."""
    srv = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    srv.bind(("127.0.0.1", 0))
    srv.settimeout(0.2)
    stop = threading.Event()

    def echo() -> None:
        while not stop.is_set():
            try:
                data, addr = srv.recvfrom(65536)
            except TimeoutError:
                continue
            srv.sendto(data, addr)

    th = threading.Thread(target=echo, daemon=True)
    th.start()
    try:
        yield srv.getsockname()[1]
    finally:
        stop.set()
        th.join()
        srv.close()
