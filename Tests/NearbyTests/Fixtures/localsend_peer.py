"""A real LocalSend peer for the lab, driven through the PyPI `localsend` package (0.1.2): its
own server, multicast task, uploader and receiver, only told what to do. One JSON object per line
on stdout.

  localsend_peer.py send ALIAS ROUNDS FILE...   announce, wait for the device called ALIAS (its
      POST /register, or its announcement), then upload every FILE to it ROUNDS times (one
      session per round); then announce PINGS more times, 1.2 s apart, timing each announcement
      to the register that answers it
  localsend_peer.py send @HOST:PORT ROUNDS FILE...   the same to the device at that address (asked
      for its info first), without waiting to be found
  localsend_peer.py receive DIR                 receive into DIR, accepting everything, until killed

The package's `send` command sends to every device forever; this drives its uploader at one target.
"""
import asyncio
import json
import mimetypes
import os
import pathlib
import sys
import time

import aiofiles
import pydantic

import localsend
from localsend.lib import dto
from localsend.lib.protocol import Device
from localsend.tasks import multicast

PINGS = int(os.environ.get("PINGS", "10"))


def say(**fields):
    print(json.dumps(fields), flush=True)


def config():
    c = localsend.Config()
    c.info.alias = os.environ.get("PEER_ALIAS", "Peer Phone")
    if os.environ.get("PEER_HTTP"):
        c.ssl = "disabled"
    return c


async def send(alias, rounds, files):
    found = asyncio.Event()
    registers = []
    target = {}

    async def new_device(device):
        if device.info.alias == alias:
            registers.append(time.monotonic())
            target["device"] = device
            found.set()

    async with localsend.create_app(config=config()) as app:
        app.callbacks.new_device = new_device
        start = time.monotonic()
        if alias.startswith("@"):
            host, port = alias[1:].rsplit(":", 1)
            probe = Device(host, dto.DeviceInfo(alias="?", version=dto.Version(2, 1), fingerprint="", deviceModel=None, deviceType=None,
                                                 port=int(port), protocol=dto.DeviceProtocol.HTTPS))
            info = await app.uploader.client.call_info_v2(probe)
            target["device"] = Device(host, dto.DeviceInfo(**info.model_dump(), port=int(port), protocol=dto.DeviceProtocol.HTTPS))
            found.set()
        try:
            await asyncio.wait_for(found.wait(), 10)
        except TimeoutError:
            say(event="not-found", alias=alias)
            return
        say(event="found", alias=alias, ms=round((time.monotonic() - start) * 1000), host=target["device"].host,
            fingerprint=target["device"].info.fingerprint, protocol=target["device"].info.protocol.value)
        for i in range(rounds):
            device = target["device"]
            t = time.monotonic()
            try:
                await app.uploader.upload(
                    [localsend.File(p.name, pydantic.ByteSize(p.stat().st_size), input=(lambda p=p: aiofiles.open(p, mode="rb")),
                                    mime_type=mimetypes.guess_type(p.name)[0]) for p in files],
                    device)
                say(event="sent", round=i, ok=True, seconds=round(time.monotonic() - t, 3))
            except Exception as e:
                detail = f"{getattr(e, 'status_code', '')} {getattr(e, 'url', '')} {getattr(e, 'text', '')}".strip()
                say(event="sent", round=i, ok=False, error=f"{type(e).__name__}: {e} {detail}"[:300])
        # The register that answers each of our announcements, timed from the announcement.
        info_ctx = app.uploader.info_ctx
        # The receiver answers one address at most once a second.
        await asyncio.sleep(1.2)
        for _ in range(PINGS):
            before = len(registers)
            t = time.monotonic()
            await multicast.send(config().multicast, info_ctx)
            # Waits well past the figure (100 ms) so a loaded machine's late answer is counted
            # late, not for the next announcement.
            while len(registers) == before and time.monotonic() - t < 10:
                await asyncio.sleep(0.002)
            if len(registers) > before:
                say(event="register", ms=round((registers[-1] - t) * 1000, 1))
            else:
                say(event="register", ms=None)
            await asyncio.sleep(1.2)


async def receive(folder):
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)

    async with localsend.create_app(config=config()) as app:
        async def accept(_device, file):
            say(event="offered", name=file.fileName, size=int(file.size), type=file.fileType)
            # Only the last path component: this driver must not write outside DIR either.
            return aiofiles.open(folder / pathlib.PurePath(file.fileName).name, mode="wb")

        app.callbacks.accept = accept
        say(event="listening", fingerprint=app.uploader.info_ctx.fingerprint)
        while True:
            await asyncio.sleep(60)


if __name__ == "__main__":
    if sys.argv[1] == "send":
        asyncio.run(send(sys.argv[2], int(sys.argv[3]), [pathlib.Path(p) for p in sys.argv[4:]]))
    else:
        asyncio.run(receive(sys.argv[2]))
