#!/usr/bin/env python3
"""A reference client for the ligas wire protocol, version 1 (Protocol/PROTOCOL.md).

Written from PROTOCOL.md and the golden vectors alone, with the Python standard
library only. Section numbers in comments (§n) refer to PROTOCOL.md.

    python3 ligas_client.py --socket PATH ping|leagues|status|describe|selftest
    python3 ligas_client.py --socket PATH teams LEAGUE | players TEAM | matches LEAGUE [--team T]
    python3 ligas_client.py --socket PATH image TEAM -o FILE
    python3 ligas_client.py vectors DIR
"""
import argparse, collections, datetime, hashlib, json, math, pathlib, socket, struct, sys, time

# ----------------------------------------------------------------------------- CBOR (§3)

MAX_DEPTH = 64  # arrays, maps and tags; the top-level item is level 1 (§3.4)
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


class Date:
    """A protocol date (§3.3): milliseconds since 1970-01-01T00:00:00Z."""
    LIMIT = 2 ** 47

    def __init__(self, ms):
        if not -self.LIMIT <= ms <= self.LIMIT:
            raise ValueError("date out of range")
        self.ms = ms

    def __eq__(self, other):
        return isinstance(other, Date) and other.ms == self.ms

    def iso(self):  # RFC 3339 with milliseconds, as the vectors' `value` writes dates (§11)
        moment = EPOCH + datetime.timedelta(milliseconds=self.ms)
        return moment.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (self.ms % 1000)

    @classmethod
    def parse(cls, text):
        moment = datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ")
        moment = moment.replace(tzinfo=datetime.timezone.utc)
        return cls((moment - EPOCH) // datetime.timedelta(milliseconds=1))


class Tag(collections.namedtuple("Tag", "number value")):
    """A tag other than the protocol's two (§3.3): kept only so unknown keys can be skipped."""


class Simple(collections.namedtuple("Simple", "number")):
    """A simple value other than false/true/null (only legal under keys we ignore)."""


class CBORError(ValueError):
    def __init__(self, message, offset):
        super().__init__("%s at byte %d" % (message, offset))
        self.offset = offset


def _head(major, argument):
    """Shortest head (§3.2): arguments 0-23 in the initial byte, then 1, 2, 4 or 8 bytes."""
    if argument < 24:
        return bytes([major << 5 | argument])
    for ai, fmt in ((24, ">B"), (25, ">H"), (26, ">I"), (27, ">Q")):
        if argument < 1 << (8 * struct.calcsize(fmt)):
            return bytes([major << 5 | ai]) + struct.pack(fmt, argument)
    raise ValueError("integer too large for CBOR")


def _float(value):
    """Shortest of half, single and double that holds the value exactly; NaN as f9 7e00."""
    if math.isnan(value):
        return b"\xf9\x7e\x00"
    for initial, fmt in ((0xF9, ">e"), (0xFA, ">f")):
        try:
            packed = struct.pack(fmt, value)
        except OverflowError:
            continue
        if struct.unpack(fmt, packed)[0] == value:
            return bytes([initial]) + packed
    return b"\xfb" + struct.pack(">d", value)


def encode(value):
    """Deterministic encoding (§3.2) of: dict (text keys), list, int, str, bytes, bool,
    None, float, Date (tag 1, §3.3). URLs are plain str (never tagged, §3.3)."""
    if value is None:
        return b"\xf6"
    if value is True or value is False:
        return b"\xf5" if value else b"\xf4"
    if isinstance(value, int):
        return _head(0, value) if value >= 0 else _head(1, -1 - value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, str):
        data = value.encode("utf-8")
        return _head(3, len(data)) + data
    if isinstance(value, (bytes, bytearray)):
        return _head(2, len(value)) + bytes(value)
    if isinstance(value, list):
        return _head(4, len(value)) + b"".join(encode(item) for item in value)
    if isinstance(value, dict):
        # Keys sorted by their encoded bytes: shorter text keys first, then bytewise.
        items = sorted((encode(key), encode(item)) for key, item in value.items())
        return _head(5, len(items)) + b"".join(key + item for key, item in items)
    if isinstance(value, Date):
        # Integer seconds when whole, else float seconds (in practice a double).
        seconds = value.ms // 1000 if value.ms % 1000 == 0 else value.ms / 1000
        return b"\xc1" + encode(seconds)
    raise TypeError("cannot encode %r" % (value,))


def decode(data):
    """Decodes exactly one item filling `data` (§3.4): rejects malformed input anywhere,
    including under keys it then drops; accepts non-shortest heads; first duplicate key wins;
    drops non-text map keys; maps tag 1 to Date and tag 32 around text to its text."""
    data = bytes(data)
    value, end = _item(data, 0, 1)
    if end != len(data):
        raise CBORError("trailing bytes", end)
    return value


def _item(data, pos, depth):
    if pos >= len(data):
        raise CBORError("truncated item", pos)
    start, initial = pos, data[pos]
    major, ai = initial >> 5, initial & 0x1F
    pos += 1
    if ai < 24:
        argument = ai
    elif ai <= 27:
        size = 1 << (ai - 24)
        if pos + size > len(data):
            raise CBORError("truncated head", pos)
        argument = int.from_bytes(data[pos:pos + size], "big")
        pos += size
    elif ai == 31:
        raise CBORError("indefinite length", start)
    else:
        raise CBORError("reserved additional information %d" % ai, start)
    if major == 0:
        return argument, pos
    if major == 1:
        return -1 - argument, pos
    if major in (2, 3):
        if argument > len(data) - pos:
            raise CBORError("length exceeds the remaining input", start)
        raw = data[pos:pos + argument]
        if major == 2:
            return raw, pos + argument
        try:
            return raw.decode("utf-8"), pos + argument
        except UnicodeDecodeError:
            raise CBORError("invalid UTF-8", pos) from None
    if major == 7:
        if ai == 24 and argument < 32:
            raise CBORError("two-byte simple value below 32", start)
        if ai == 25:
            return struct.unpack(">e", data[pos - 2:pos])[0], pos
        if ai == 26:
            return struct.unpack(">f", data[pos - 4:pos])[0], pos
        if ai == 27:
            return struct.unpack(">d", data[pos - 8:pos])[0], pos
        return {20: False, 21: True, 22: None}.get(argument, Simple(argument)), pos
    # Arrays, maps and tags put their contents one level deeper (§3.4).
    if depth > MAX_DEPTH:
        raise CBORError("nesting deeper than %d" % MAX_DEPTH, start)
    if major == 4:
        if argument > len(data) - pos:  # every item takes at least one byte
            raise CBORError("count exceeds the remaining input", start)
        items = []
        for _ in range(argument):
            item, pos = _item(data, pos, depth + 1)
            items.append(item)
        return items, pos
    if major == 5:
        if argument > (len(data) - pos) // 2:
            raise CBORError("count exceeds the remaining input", start)
        result = {}
        for _ in range(argument):
            key, pos = _item(data, pos, depth + 1)
            item, pos = _item(data, pos, depth + 1)
            if isinstance(key, str) and key not in result:
                result[key] = item
        return result, pos
    content, pos = _item(data, pos, depth + 1)  # major 6: a tag
    if argument == 1 and isinstance(content, (int, float)) and not isinstance(content, bool):
        if not math.isfinite(content):
            raise CBORError("date is not finite", start)
        return Date(nearest_millisecond(content)), pos
    if argument == 32 and isinstance(content, str):
        return content, pos
    return Tag(argument, content), pos


def nearest_millisecond(seconds):
    """seconds × 1000 to the nearest integer, a half away from zero (§3.3)."""
    product = seconds * 1000
    whole = math.floor(abs(product))
    rounded = whole + (1 if abs(product) - whole >= 0.5 else 0)
    return int(math.copysign(rounded, product))


# ----------------------------------------------------------------------------- frames (§2)

HELLO, REQUEST, RESPONSE, ERROR, CHUNK, END, CANCEL = range(1, 8)
KIND_NAMES = {1: "hello", 2: "request", 3: "response", 4: "error",
              5: "streamChunk", 6: "streamEnd", 7: "cancel"}
STREAM_FOLLOWS = 0x0001
VERSION = 1
Frame = collections.namedtuple("Frame", "kind flags rid payload raw")


def encode_frame(kind, rid, payload=b"", flags=0, version=VERSION):
    """u32 length L (header + payload), then version, kind, u16 flags, u32 id (§2.1)."""
    return struct.pack(">IBBHI", 8 + len(payload), version, kind, flags, rid) + payload


class ProtocolError(Exception):
    """The server broke the protocol, or the connection ended where it must not."""


class RemoteError(Exception):
    """An `error` frame (§9). rid 0: the connection is closed."""

    def __init__(self, rid, body):
        self.rid, self.code = rid, body.get("code")
        self.message, self.details = body.get("message", ""), body.get("details") or {}
        super().__init__("%s: %s %s" % (self.code, self.message, self.details or ""))


class Connection:
    """One connection: hello handshake, then any number of requests in flight, answers
    matched by request id; frames of other ids wait in `self.inbox` until asked for."""

    def __init__(self, path, max_frame_size=16 * 1024 * 1024, chunk_size=262144,
                 versions=(1,), timeout=10.0, connect=True):
        self.max_frame_size, self.chunk_size, self.versions = max_frame_size, chunk_size, versions
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.inbox = collections.defaultdict(collections.deque)  # rid -> frames not yet read
        self.cancelled, self.discarded = set(), 0  # ids we cancelled; frames dropped for them
        self.next_id, self.closed, self.server = 1, False, None
        self.nondeterministic = []  # (kind, id) of payloads not in deterministic encoding
        if connect:
            self.handshake()

    def close(self):
        self.closed = True
        self.sock.close()

    # --- bytes in and out
    def send_raw(self, data):
        try:
            self.sock.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # §6: the server may have closed first; its error frame is still readable

    def _read_exactly(self, count):
        data = bytearray()
        while len(data) < count:
            piece = self.sock.recv(min(count - len(data), 1 << 20))
            if not piece:
                self.closed = True
                raise EOFError("connection closed by the server")
            data += piece
        return bytes(data)

    def read_frame(self):
        """Reads and validates one frame (§2.5); raises RemoteError for an error id 0."""
        (length,) = struct.unpack(">I", self._read_exactly(4))
        if length > self.max_frame_size:  # checked before reading the rest (§2.5)
            self._fail("frame of %d bytes exceeds our maxFrameSize" % length)
        if length < 8:
            self._fail("frame length %d below 8" % length)
        version, kind, flags, rid = struct.unpack(">BBHI", self._read_exactly(8))
        if version != VERSION:
            self._fail("frame version %d" % version)
        if kind not in (RESPONSE, ERROR, CHUNK, END) and not (kind == HELLO and self.server is None):
            self._fail("unexpected frame kind %d" % kind)
        if flags & ~STREAM_FOLLOWS or (flags and kind != RESPONSE):
            self._fail("reserved flag set: %#06x" % flags)
        if (kind == HELLO) != (rid == 0) and kind != ERROR:
            self._fail("bad request id %d for %s" % (rid, KIND_NAMES[kind]))
        payload = self._read_exactly(length - 8)
        if kind == CHUNK:
            return Frame(kind, flags, rid, payload, payload)
        try:
            body = decode(payload)
        except (CBORError, ValueError) as error:
            self._fail("undecodable %s payload: %s" % (KIND_NAMES[kind], error))
        try:  # §3.2: senders encode deterministically; note any payload that is not
            if encode(body) != payload:
                self.nondeterministic.append((KIND_NAMES[kind], rid))
        except TypeError:
            pass  # holds tags or simple values we only skip: cannot re-encode
        if kind == ERROR:
            if not isinstance(body, dict) or not isinstance(body.get("code"), str):
                self._fail("error frame without a text code")
            if rid == 0:  # connection-level: the server closes after it (§2.4)
                self.closed = True
                raise RemoteError(0, body)
        return Frame(kind, flags, rid, body, payload)

    def _fail(self, reason):
        # The client closes; it sends no `error` frame, since that kind is server-to-client (§2.2).
        self.close()
        raise ProtocolError(reason)

    def send(self, kind, rid, payload=b"", flags=0):
        self.send_raw(encode_frame(kind, rid, payload, flags))

    # --- handshake (§6)
    def handshake(self):
        hello = {"versions": list(self.versions), "maxFrameSize": self.max_frame_size,
                 "maxInFlight": 8, "chunkSize": self.chunk_size, "agent": "ligas-py/0.1"}
        self.send(HELLO, 0, encode(hello))
        frame = self.read_frame()  # an error id 0 raises RemoteError here
        if frame.kind != HELLO:
            self._fail("first server frame is %s, not hello" % KIND_NAMES[frame.kind])
        server = frame.payload
        versions = server.get("versions") if isinstance(server, dict) else None
        if not (isinstance(versions, list) and len(versions) == 1 and versions[0] in self.versions):
            self._fail("server hello versions %r" % (versions,))
        for key, least in (("maxFrameSize", 4096), ("maxInFlight", 1), ("chunkSize", 1)):
            if not isinstance(server.get(key), int) or not least <= server[key] < 1 << 32:
                self._fail("server hello %s out of range: %r" % (key, server.get(key)))
        self.server = server
        # Stream chunks are at most this many bytes (§7).
        self.chunk_limit = min(self.chunk_size, server["chunkSize"], self.max_frame_size - 8)
        return server

    # --- requests (§2.4, §5)
    def new_id(self):
        """Ids count up from 1 and are never reused, which also covers cancelled ids (§6)."""
        rid = self.next_id
        self.next_id = self.next_id % 0xFFFFFFFF + 1
        return rid

    def request(self, method, args=None, cache="default", deadline_ms=None, rid=None):
        body = {"method": method, "cache": cache}  # senders always write `cache` (§4)
        if args is not None:
            body["args"] = args
        if deadline_ms is not None:
            body["deadlineMs"] = deadline_ms
        rid = self.new_id() if rid is None else rid
        self.send(REQUEST, rid, encode(body))
        return rid

    def cancel(self, rid):
        self.cancelled.add(rid)
        self.send(CANCEL, rid)

    def frame_for(self, rid):
        """The next frame for `rid`; frames for other ids are kept, those for cancelled ids
        are dropped (§6: they may still arrive)."""
        while not self.inbox[rid]:
            frame = self.read_frame()
            if frame.rid in self.cancelled:
                self.discarded += 1
            else:
                self.inbox[frame.rid].append(frame)
        return self.inbox[rid].popleft()

    def result(self, rid):
        """The final answer of a non-stream request, or RemoteError."""
        frame = self.frame_for(rid)
        if frame.kind == ERROR:
            raise RemoteError(rid, frame.payload)
        if frame.kind != RESPONSE or frame.flags:
            self._fail("expected a plain response for id %d, got %s" % (rid, KIND_NAMES[frame.kind]))
        return frame.payload

    def call(self, method, args=None, **options):
        return self.result(self.request(method, args, **options))

    def stream(self, rid):
        """Reads an image stream (§7): returns (header, bytes, end) after checking the chunk
        sizes and the streamEnd's totalBytes and sha256 against what arrived."""
        header = self.frame_for(rid)
        if header.kind == ERROR:
            raise RemoteError(rid, header.payload)
        if header.kind != RESPONSE or header.flags != STREAM_FOLLOWS:
            self._fail("expected a stream header for id %d" % rid)
        data, digest = bytearray(), hashlib.sha256()
        while True:
            frame = self.frame_for(rid)
            if frame.kind == CHUNK:
                if len(frame.payload) > self.chunk_limit:
                    raise ProtocolError("chunk of %d bytes above %d" % (len(frame.payload), self.chunk_limit))
                data += frame.payload
                digest.update(frame.payload)
            elif frame.kind == ERROR:  # failed mid-stream: discard the partial data (§7.4)
                raise RemoteError(rid, frame.payload)
            elif frame.kind == END:
                end = frame.payload
                if end.get("totalBytes") != len(data):
                    raise ProtocolError("streamEnd totalBytes %r, received %d" % (end.get("totalBytes"), len(data)))
                if end.get("sha256") != digest.digest():
                    raise ProtocolError("streamEnd sha256 differs from the received bytes")
                size = header.payload.get("totalSize")
                if size is not None and size != len(data):
                    raise ProtocolError("header totalSize %r, received %d" % (size, len(data)))
                return header.payload, bytes(data), end
            else:
                self._fail("unexpected %s in stream %d" % (KIND_NAMES[frame.kind], rid))


# ----------------------------------------------------------------------------- golden vectors (§11)

def to_json(value):
    """Decoded value -> the vectors' `value` form: dates as RFC 3339 text, bytes as hex."""
    if isinstance(value, Date):
        return value.iso()
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, dict):
        return {key: to_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [to_json(item) for item in value]
    return value


def from_typed(value):
    """A vector's `typed_value` -> encodable value: {"$date"}, {"$bytes"}, {"$url"} leaves."""
    if isinstance(value, dict):
        if len(value) == 1:
            (marker, leaf), = value.items()
            if marker == "$date":
                return Date.parse(leaf)
            if marker == "$bytes":
                return bytes.fromhex(leaf)
            if marker == "$url":
                return leaf
        return {key: from_typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [from_typed(item) for item in value]
    return value


def check_vectors(folder):
    failures, files = 0, sorted(pathlib.Path(folder).glob("*.json"))
    for path in files:
        vector, problems = json.loads(path.read_text()), []
        frame, header = bytes.fromhex(vector["frame_hex"]), vector["header"]
        payload = bytes.fromhex(vector["payload_hex"])
        length, version, kind, flags, rid = struct.unpack(">IBBHI", frame[:12])
        if (length, version, kind, flags, rid) != (len(frame) - 4, header["version"],
                                                   header["kindCode"], header["flags"], header["requestId"]) \
                or header["length"] != length or KIND_NAMES.get(kind) != vector["kind"]:
            problems.append("header fields differ from `header`")
        if frame[12:] != payload:
            problems.append("payload_hex is not the frame's payload")
        if vector["value"] is None:  # chunks and cancel: raw payload
            if kind not in (CHUNK, CANCEL):
                problems.append("null value for a CBOR kind")
        else:
            try:
                decoded = decode(payload)
                if to_json(decoded) != vector["value"]:
                    problems.append("decoded payload differs from `value`")
                if encode(decoded) != payload:
                    problems.append("re-encoding the decoded payload differs")
            except (CBORError, ValueError) as error:
                problems.append("decode failed: %s" % error)
            encoded = encode(from_typed(vector["typed_value"]))
            if encoded != payload:
                problems.append("encoding typed_value gives %s" % encoded.hex())
            payload = encoded
        if encode_frame(kind, rid, payload, flags) != frame:
            problems.append("encoded frame differs from frame_hex")
        failures += bool(problems)
        print("%s %s%s" % ("FAIL" if problems else "ok  ", path.name,
                           ": " + "; ".join(problems) if problems else ""))
    # §3.3's rounding examples: a half away from zero.
    for seconds, milliseconds in ((0.0005, 1), (-0.0005, -1), (0.0004, 0), (1.0025, 1003)):
        got = decode(b"\xc1\xfb" + struct.pack(">d", seconds)).ms
        if got != milliseconds:
            failures += 1
            print("FAIL 1(%r) decodes to %d ms, not %d (§3.3)" % (seconds, got, milliseconds))
    print("%d passed, %d failed" % (len(files) - failures, failures))
    return 1 if failures or not files else 0


# ----------------------------------------------------------------------------- selftest

class SelfTest:
    def __init__(self, path):
        self.path, self.failures, self.count = path, 0, 0

    def check(self, name, ok, detail=""):
        self.count += 1
        self.failures += not ok
        print("%s %s%s" % ("PASS" if ok else "FAIL", name, ": " + str(detail) if detail else ""))
        return ok

    def run(self, name, function):
        """Runs one check; an unexpected exception fails it."""
        try:
            function()
        except Exception as error:  # noqa: BLE001 - report and go on with the next check
            self.check(name, False, "%s: %s" % (type(error).__name__, error))

    def expect_error(self, conn, rid, code, **details):
        """The request's final frame must be `error` with this code and these details."""
        try:
            value = conn.result(rid)
            return False, "got a response %r" % (to_json(value),)
        except RemoteError as error:
            wanted = {key: details[key] for key in details if details[key] is not None}
            got = {key: error.details.get(key) for key in details}
            present = all(key in error.details for key in details)
            ok = error.rid == rid and error.code == code and present and \
                all(got[key] == wanted[key] for key in wanted)
            return ok, "id %d %s %s" % (error.rid, error.code, error.details)

    def expect_closed(self, conn, code, **details):
        """The server must send `error` id 0 with this code, then close (§6)."""
        frames = []
        try:
            while True:
                frames.append(conn.read_frame())
        except RemoteError as error:
            ok = error.code == code and all(error.details.get(k) == v for k, v in details.items())
            try:
                conn.sock.settimeout(3)
                eof = conn.sock.recv(1) == b""
            except OSError:
                eof = False
            return ok and eof, "%d frame(s) first, then id 0 %s %s%s" % (
                len(frames), error.code, error.details, "" if eof else ", NOT closed")
        except EOFError:
            return False, "closed without an error frame"

    def main(self):
        path, conns = self.path, []

        def connect(**options):
            conn = Connection(path, **options)
            conns.append(conn)
            return conn

        try:
            conn = connect(chunk_size=100)
        except Exception as error:  # noqa: BLE001 - nothing else can run without a connection
            self.check("handshake", False, "%s: %s" % (type(error).__name__, error))
            return 1
        server = conn.server
        self.check("handshake", server["versions"] == [1] and isinstance(server.get("agent"), str),
                   "server %s, maxFrameSize %d, maxInFlight %d, chunkSize %d" % (
                       server["agent"], server["maxFrameSize"], server["maxInFlight"], server["chunkSize"]))

        self.run("ping", lambda: self.check("ping", conn.call("ping") == {}))

        sources = ("cache", "remote", "builtIn")
        state = {}

        def leagues():
            result = conn.call("leagues")
            ids = [league["id"] for league in result["value"]]
            state["league"] = ids[0]
            self.check("leagues", result["source"] in sources and ids and all(
                set(league) >= {"id", "name", "logoURL", "dataSource"} for league in result["value"]),
                "%s from %s" % (ids, result["source"]))
        self.run("leagues", leagues)

        def teams():
            result = conn.call("teams", {"league": state["league"]})
            state["teams"] = result["value"]
            self.check("teams", result["source"] in sources and len(result["value"]) > 0 and all(
                set(team) >= {"id", "name", "logoURL", "dataSource"} for team in result["value"]),
                "%d teams of %s" % (len(result["value"]), state["league"]))
        self.run("teams", teams)

        def players():
            team = state["teams"][0]["id"]
            result = conn.call("players", {"team": team})
            positions = {player["position"] for player in result["value"]}
            self.check("players", result["source"] in sources and result["value"] and positions <= {
                "coach", "goalkeeper", "defender", "midfielder", "forward"},
                "%d players of %s" % (len(result["value"]), team))
        self.run("players", players)

        def matches():
            result = conn.call("matches", {"league": state["league"]})["value"]
            dates = [match["date"] for match in result["previous"] + result["upcoming"]]
            self.check("matches", dates and all(isinstance(date, Date) for date in dates),
                       "%d previous, %d upcoming, first %s" % (
                           len(result["previous"]), len(result["upcoming"]), dates[0].iso()))
        self.run("matches", matches)

        def standings():
            result = conn.call("standings", {"league": state["league"]})
            rows = result["value"]
            self.check("standings", result["source"] in sources and rows and
                       [row["rank"] for row in rows] == list(range(1, len(rows) + 1)) and all(
                           row["played"] == row["won"] + row["drawn"] + row["lost"] for row in rows),
                       "%d rows, leader %s with %d points" % (len(rows), rows[0]["team"]["id"], rows[0]["points"]))
        self.run("standings", standings)

        def status():
            result = conn.call("status")
            counters = ("uptimeSeconds", "openConnections", "inFlightRequests", "requestsServed",
                        "cacheHits", "cacheMisses", "remoteFailures")
            self.check("status", result["protocolVersion"] == 1 and all(
                isinstance(result[key], int) and result[key] >= 0 for key in counters)
                and result["openConnections"] >= 1 and "quota" not in result,  # no metered provider (§4)
                "version %s, served %d" % (result["version"], result["requestsServed"]))
        self.run("status", status)

        def describe():
            result = conn.call("describe")
            names = [method["name"] for method in result["methods"]]
            self.check("describe", result["name"] == "ligas" and result["protocolVersion"] == 1 and
                       set(names) >= {"ping", "leagues", "teams", "players", "matches", "standings",
                                      "image", "status", "describe"}, names)
            state["describe_length"] = 8 + len(encode(result))
        self.run("describe", describe)

        def image():
            team = state["teams"][0]["id"]
            header, data, end = conn.stream(conn.request("image", {"team": team}))  # checks sha/size
            self.check("image stream", header["contentType"].startswith("image/"),
                       "%s: %d bytes, chunks <= %d, sha256 %s... matches streamEnd" % (
                           team, len(data), conn.chunk_limit, end["sha256"].hex()[:16]))
        self.run("image stream", image)

        def cancel():
            # Tiny chunks so the stream is still going when the cancel arrives (delay 0), or
            # has been written in full already (delay 0.05 s): either way the client drops what
            # still comes for the id (§6), and the connection goes on.
            counts = []
            for delay in (0, 0.05):
                slow = connect(chunk_size=1)
                rid = slow.request("image", {"league": state["league"]})
                first = slow.frame_for(rid)
                time.sleep(delay)
                slow.cancel(rid)
                # The server reads the cancel before this ping: after the ping's answer
                # nothing more for rid may come (checked with a second ping).
                slow.call("ping")
                after = slow.discarded
                ok = first.flags == STREAM_FOLLOWS and slow.call("ping") == {} and slow.discarded == after
                counts.append("%d" % after if ok else "%d then %d more" % (after, slow.discarded - after))
            self.check("cancel stream", all(" " not in count for count in counts),
                       "frames dropped for the cancelled id: %s; connection still answers" % " and ".join(counts))
        self.run("cancel stream", cancel)

        def two_in_flight():
            a = conn.request("players", {"team": state["teams"][1]["id"]})
            b = conn.request("teams", {"league": state["league"]})
            c = conn.request("image", {"team": state["teams"][1]["id"]})
            # Read the last one first: the answers of a and b are kept by id until asked for.
            header, data, _ = conn.stream(c)
            teams, squad = conn.result(b)["value"], conn.result(a)["value"]
            self.check("requests in flight together", "position" in squad[0] and "logoURL" in teams[0]
                       and len(data) > 0, "ids %d, %d, %d answered and matched by id" % (a, b, c))
        self.run("requests in flight together", two_in_flight)

        def unknown_method():
            ok, detail = self.expect_error(conn, conn.request("lineups"), "unknownMethod", method="lineups")
            self.check("unknownMethod", ok and conn.call("ping") == {}, detail)
        self.run("unknownMethod", unknown_method)

        def not_found():
            ok1, detail1 = self.expect_error(conn, conn.request("teams", {"league": "no-such-league"}), "notFound")
            ok2, detail2 = self.expect_error(conn, conn.request("image", {"team": "no-such-team"}), "notFound")
            self.check("notFound", ok1 and ok2 and conn.call("ping") == {}, "%s; %s" % (detail1, detail2))
        self.run("notFound", not_found)

        def bad_request():
            ok1, detail1 = self.expect_error(conn, conn.request("teams", {}), "badRequest", path="args.league")
            rid = conn.new_id()  # the request-teams vector's payload cut one byte short (§3.5)
            conn.send(REQUEST, rid, encode({"args": {"league": "ligapro-serie-a"},
                                            "cache": "default", "method": "teams"})[:-1])
            ok2, detail2 = self.expect_error(conn, rid, "badRequest", offset=None)
            # Not an absolute URL (§3.3).
            ok3, detail3 = self.expect_error(conn, conn.request("image", {"url": "relative/x.png"}), "badRequest",
                                             path="args.url")
            # The method is judged first (§6): unknownMethod, though `cache` is invalid too.
            ok4, detail4 = self.expect_error(conn, conn.request("lineups", cache="sometimes"), "unknownMethod",
                                             method="lineups")
            self.check("badRequest", ok1 and ok2 and ok3 and ok4, "; ".join((detail1, detail2, detail3, detail4)))
        self.run("badRequest", bad_request)

        def deadline():
            ok, detail = self.expect_error(conn, conn.request("ping", deadline_ms=0), "deadlineExceeded")
            self.check("deadlineMs 0", ok and conn.call("ping") == {}, detail)
        self.run("deadlineMs 0", deadline)

        def too_large_result():
            small = connect(max_frame_size=4096)
            ok, detail = self.expect_error(small, small.request("describe"), "resultTooLarge",
                                           bytes=str(state["describe_length"]), maxFrameSize="4096")
            self.check("resultTooLarge", ok and small.call("ping") == {}, detail)
        self.run("resultTooLarge", too_large_result)

        def too_many():
            busy = connect(chunk_size=1)
            limit = busy.server["maxInFlight"]
            ids = [busy.new_id() for _ in range(limit + 2)]
            body = encode({"method": "image", "cache": "default", "args": {"league": state["league"]}})
            busy.send_raw(b"".join(encode_frame(REQUEST, rid, body) for rid in ids))
            first = {}
            while len(first) < len(ids):
                frame = busy.read_frame()
                first.setdefault(frame.rid, frame)
            refused = [rid for rid in ids if first[rid].kind == ERROR
                       and first[rid].payload["code"] == "tooManyRequests"]
            self.check("tooManyRequests", refused == ids[limit:], "refused ids %s of %d" % (refused, len(ids)))
            busy.close()
        self.run("tooManyRequests", too_many)

        def reuse():
            victim = connect(chunk_size=1)
            image_body = encode({"method": "image", "cache": "default", "args": {"league": state["league"]}})
            victim.send_raw(encode_frame(REQUEST, 9, image_body) +
                            encode_frame(REQUEST, 9, encode({"method": "ping", "cache": "default"})))
            ok, detail = self.expect_closed(victim, "badFrame", requestId="9")
            self.check("request id reused in flight", ok, detail)
        self.run("request id reused in flight", reuse)

        def frame_limit():
            limit = conn.server["maxFrameSize"]
            exact = connect()  # a request of exactly L = maxFrameSize is accepted: pad an unknown key
            padding = limit - 8 - len(encode({"method": "ping", "cache": "default", "pad": b""}))
            body = encode({"method": "ping", "cache": "default", "pad": b"\0" * (padding - 4)})
            rid = exact.new_id()
            exact.send(REQUEST, rid, body)
            self.check("frame of exactly maxFrameSize", 8 + len(body) == limit and exact.result(rid) == {},
                       "L = %d" % (8 + len(body)))
            big = connect()  # one byte more: only the length and header are sent (§2.5)
            big.send_raw(struct.pack(">IBBHI", limit + 1, VERSION, REQUEST, 0, big.new_id()))
            ok, detail = self.expect_closed(big, "frameTooLarge")
            self.check("frame above maxFrameSize", ok, "L = %d: %s" % (limit + 1, detail))
        self.run("frame above maxFrameSize", frame_limit)

        def refused_hellos():
            def refused(code, key, value, **hello):
                conn = Connection(path, connect=False, **hello)
                conns.append(conn)
                try:
                    conn.handshake()
                    return False, "%r: hello accepted" % hello
                except RemoteError as error:
                    return (error.code == code and error.details.get(key) == value,
                            "%r: %s %s" % (hello, error.code, error.details))
            outcomes = [refused("badFrame", "path", "maxFrameSize", max_frame_size=4095),
                        refused("unsupportedVersion", "supported", "1", versions=(2,)),
                        refused("unsupportedVersion", "supported", "1", versions=())]
            self.check("hello refusals", all(ok for ok, _ in outcomes), "; ".join(d for _, d in outcomes))
        self.run("hello refusals", refused_hellos)

        def half_close():
            # §6: the last request and shutdown(SHUT_WR) at once; every answer, then the close.
            half = connect()
            rids = [half.request("ping"), half.request("leagues")]
            half.sock.shutdown(socket.SHUT_WR)
            kinds = [half.frame_for(rid).kind for rid in rids]
            try:
                extra = half.read_frame()
                closed, detail = False, "a frame after the answers: %s" % KIND_NAMES[extra.kind]
            except EOFError:
                closed, detail = True, "answers, then EOF"
            except OSError as error:  # a timeout: never closed
                closed, detail = False, "%s: no close" % type(error).__name__
            self.check("half-close", kinds == [RESPONSE, RESPONSE] and closed, detail)
        self.run("half-close", half_close)

        odd = [item for c in conns for item in c.nondeterministic]
        self.check("server payloads deterministically encoded", not odd, odd[:5])
        for c in conns:
            c.close()
        print("%d checks, %d failed" % (self.count, self.failures))
        return 1 if self.failures else 0


# ----------------------------------------------------------------------------- command line

def main():
    parser = argparse.ArgumentParser(description="ligas protocol v1 client (PROTOCOL.md)")
    parser.add_argument("--socket", help="the daemon's Unix socket")
    parser.add_argument("--cache", default="default", choices=("default", "refresh", "offline"))
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("ping", "leagues", "status", "describe", "selftest"):
        commands.add_parser(name)
    commands.add_parser("teams").add_argument("league")
    commands.add_parser("players").add_argument("team")
    matches = commands.add_parser("matches")
    matches.add_argument("league")
    matches.add_argument("--team")
    image = commands.add_parser("image", help="a team's logo")
    image.add_argument("team")
    image.add_argument("-o", "--output", required=True)
    commands.add_parser("vectors").add_argument("dir")
    options = parser.parse_args()

    if options.command == "vectors":
        return check_vectors(options.dir)
    if not options.socket:
        parser.error("--socket is required for %s" % options.command)
    if options.command == "selftest":
        return SelfTest(options.socket).main()
    try:
        conn = Connection(options.socket)
        if options.command == "image":
            header, data, end = conn.stream(conn.request("image", {"team": options.team},
                                                         cache=options.cache))
            pathlib.Path(options.output).write_bytes(data)  # verified by Connection.stream
            print("%s: %d bytes (%s, from %s), sha256 %s" % (options.output, len(data),
                  header["contentType"], header["source"], end["sha256"].hex()))
            return 0
        args = {"teams": lambda: {"league": options.league},
                "players": lambda: {"team": options.team},
                "matches": lambda: dict({"league": options.league},
                                        **({"team": options.team} if options.team else {}))}
        arguments = args[options.command]() if options.command in args else None
        result = conn.call(options.command, arguments, cache=options.cache)
        print(json.dumps(to_json(result), indent=2, ensure_ascii=False))
        return 0
    except RemoteError as error:
        print("error: %s" % error, file=sys.stderr)
        return 2
    except (ProtocolError, EOFError, OSError) as error:
        print("connection failed: %s" % error, file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
