#!/usr/bin/env python3
"""A Kanban dispatcher for Recourse in Python (README "Dispatching"), with confluent-kafka and fastavro.

It plays the gateway/dispatcher side of the interactive (Kanban) protocol:

1. Reads recourse.agent-frames to know, per session, the latest prompt generation and the prompt
   (params.prompt, turn_config) it sent for each generation; a real dispatcher has these in its
   own store.
2. Reads recourse.kanban.retry-commands (Avro single-object encoding, decoded with the schemas in
   schemas/; read_committed) and for each command, in order:
   - drops it without any ack when it is past `expires_at` (less --margin-ms): Recourse has moved
     the attempt to manual (dispatch_unconfirmed) by then, so sending the prompt would duplicate
     what the user now owns;
   - acks `failed` / `superseded` when `expected_generation` is no longer the session's latest;
   - acks `failed` / `dispatch_failed` when it does not hold the prompt of `expected_generation`
     or its digests differ from `prompt_digest` / `turn_config_digest`;
   - otherwise sends the prompt as a new generation: the retried turn's `session/prompt` frame with
     `command_id`, `prompt_origin=retry` and `retry_of_generation = expected_generation`, the ack
     `dispatched` with `prompt_generation`, then the turn's frames (here a scripted completed turn,
     where a real gateway forwards the agent's frames).
3. Prints one JSON line per command: {"command_id", "session_id", "decision", ...}.

Usage (see --help): kanban_dispatcher.py --bootstrap HOST:PORT [--sessions a,b] [--delay-ms N]
    [--max-commands N] [--timeout-s S]

--delay-ms makes it a slow dispatcher (it waits that long before handling each command, as one
working through a backlog would); --ignore-expiry turns off the expires_at check, for showing what
it prevents; never use it in production.
"""

import argparse
import datetime
import hashlib
import json
import os
import pathlib
import sys
import time

from confluent_kafka import Consumer, KafkaException, Producer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from recourse_avro import Decoder, millis  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
DEFAULT_SCHEMAS = HERE.parent.parent / "schemas"


def canonical_json(value):
    """RFC 8785 canonical JSON for values made of objects, arrays, strings, integers, booleans and null
    (what an ACP prompt is); a prompt with non-integer numbers or non-BMP member names needs a full
    RFC 8785 implementation."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value):
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def now_ms():
    return time.time_ns() // 1_000_000


def rfc3339(ms):
    return datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Sessions:
    """What the dispatcher knows of each session, learnt from the frames it (as the gateway) sent."""

    def __init__(self):
        self.latest = {}   # session_id -> highest prompt_generation seen
        self.prompts = {}  # (session_id, generation) -> the session/prompt frame
        self.seq = {}      # session_id -> highest seq seen

    def see(self, frame):
        session, generation = frame.get("session_id"), frame.get("prompt_generation")
        if not isinstance(session, str) or not isinstance(generation, int):
            return
        self.latest[session] = max(generation, self.latest.get(session, -1))
        self.seq[session] = max(frame.get("seq", 0), self.seq.get(session, 0))
        payload = frame.get("payload") or {}
        if frame.get("source") == "acp_request" and payload.get("method") == "session/prompt":
            self.prompts[(session, generation)] = frame


class Dispatcher:

    def __init__(self, args):
        self.args = args
        self.decoder = Decoder(args.schemas)
        self.sessions = Sessions()
        self.wanted = set(args.sessions.split(",")) if args.sessions else None
        group = args.group or f"recourse-python-dispatcher-{os.getpid()}-{now_ms()}"
        self.consumer = Consumer({
            "bootstrap.servers": args.bootstrap,
            "group.id": group,
            "auto.offset.reset": "earliest",
            "isolation.level": "read_committed",  # Recourse writes in exactly-once transactions
            "enable.auto.commit": True,
        })
        self.producer = Producer({"bootstrap.servers": args.bootstrap, "enable.idempotence": True})
        self.handled = 0
        self.pending = []  # (monotonic receive time, command), in topic order
        self.seen = set()  # command ids handled or pending (a real dispatcher keeps these durably)

    def drain(self):
        """Handles the pending commands in order. A command whose prompt generation this dispatcher
        has not read yet (frames and commands are different topics) waits up to --prompt-wait-ms."""
        while self.pending:
            received, command = self.pending[0]
            known = (command["session_id"], command["expected_generation"]) in self.sessions.prompts
            if not known and time.monotonic() - received < self.args.prompt_wait_ms / 1000:
                return
            self.pending.pop(0)
            self.on_command(command)
            self.handled += 1

    def emit(self, **line):
        print(json.dumps(line, sort_keys=True), flush=True)

    def send(self, topic, key, value):
        self.producer.produce(topic, key=key.encode("utf-8"), value=json.dumps(value).encode("utf-8"))

    def ack(self, command, status, reason=None, generation=None):
        ack = {"command_id": command["command_id"], "status": status, "session_id": command["session_id"],
               "occurred_at": rfc3339(now_ms())}
        if reason is not None:
            ack["reason"] = reason
        if generation is not None:
            ack["prompt_generation"] = generation
        self.send(self.args.acks_topic, command["session_id"], ack)
        self.producer.flush(10)

    def frame(self, template, session, generation, **fields):
        f = {k: template[k] for k in ("agent_type", "provider_id", "model_id", "profile_kind", "agent_profile_id",
                                      "execution_profile_id") if template.get(k) is not None}
        self.sessions.seq[session] = self.sessions.seq.get(session, 0) + 1
        f.update(session_id=session, prompt_generation=generation, seq=self.sessions.seq[session],
                 occurred_at=rfc3339(now_ms()), **fields)
        self.send(self.args.frames_topic, f"{session}/{generation}", f)
        self.sessions.see(f)
        return f

    def on_command(self, command):
        session = command["session_id"]
        if self.args.delay_ms:
            time.sleep(self.args.delay_ms / 1000)
        expires_at = millis(command.get("expires_at"))
        base = dict(command_id=command["command_id"], session_id=session, attempt=command["attempt"],
                    expected_generation=command["expected_generation"], expires_at=expires_at)
        if expires_at is not None and now_ms() + self.args.margin_ms >= expires_at and not self.args.ignore_expiry:
            self.emit(decision="dropped_expired", late_ms=now_ms() - expires_at, **base)
            return  # no ack: Recourse has given the attempt to the user
        expected = command["expected_generation"]
        if self.sessions.latest.get(session, expected) > expected:
            self.ack(command, "failed", "superseded")
            self.emit(decision="superseded", latest_generation=self.sessions.latest[session], **base)
            return
        sent = self.sessions.prompts.get((session, expected))
        params = ((sent or {}).get("payload") or {}).get("params") or {}
        turn_config = (sent or {}).get("turn_config")
        if (sent is None or "prompt" not in params or digest(params["prompt"]) != command["prompt_digest"]
                or (command.get("turn_config_digest") or None) != (digest(turn_config) if turn_config else None)):
            self.ack(command, "failed", "dispatch_failed")
            self.emit(decision="digest_mismatch" if sent else "no_prompt", **base)
            return
        generation = self.sessions.latest.get(session, expected) + 1
        rpc_id = 1000 + generation
        prompt = {"jsonrpc": "2.0", "id": rpc_id, "method": "session/prompt", "params": params}
        retry_fields = dict(source="acp_request", payload=prompt, phase="prompt_send", prompt_origin="retry",
                            command_id=command["command_id"], retry_of_generation=expected)
        if turn_config:
            retry_fields["turn_config"] = turn_config
        sent_at = now_ms()
        self.frame(sent, session, generation, **retry_fields)
        self.producer.flush(10)
        self.ack(command, "dispatched", generation=generation)
        # the retried turn: here a scripted completed turn; a real gateway forwards the agent's frames
        acp_session = params.get("sessionId", "")
        self.frame(sent, session, generation, source="acp_update", phase="streaming", payload={
            "jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": acp_session, "update": {
                "sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "Done."}}}})
        self.frame(sent, session, generation, source="acp_response", phase="streaming", payload={
            "jsonrpc": "2.0", "id": rpc_id, "result": {"stopReason": "end_turn"}})
        self.producer.flush(10)
        self.emit(decision="dispatched", prompt_generation=generation, sent_at=sent_at, **base)

    def run(self):
        topics = [self.args.frames_topic, self.args.commands_topic]
        self.consumer.subscribe(topics)
        deadline = time.monotonic() + self.args.timeout_s
        self.emit(decision="started", topics=topics)
        try:
            while time.monotonic() < deadline:
                if self.args.max_commands and self.handled >= self.args.max_commands:
                    return 0
                self.drain()
                msg = self.consumer.poll(0.2)
                if msg is None:
                    continue
                if msg.error():
                    raise KafkaException(msg.error())
                if msg.topic() == self.args.frames_topic:
                    try:
                        self.sessions.see(json.loads(msg.value()))
                    except (ValueError, TypeError):
                        pass  # not a frame this dispatcher sent: Recourse dead-letters it
                    continue
                name, command = self.decoder.decode(msg.value())
                if name != "io.recourse.avro.RetryCommand":
                    continue
                if self.wanted is not None and command["session_id"] not in self.wanted:
                    continue
                if command["command_id"] in self.seen:
                    continue  # one command per attempt: a re-read (consumer restart) is not a new command
                self.seen.add(command["command_id"])
                self.pending.append((time.monotonic(), command))
                self.drain()
            self.emit(decision="timeout", handled=self.handled)
            return 0 if not self.args.max_commands else 2
        finally:
            self.producer.flush(10)
            self.consumer.close()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bootstrap", required=True, help="Kafka bootstrap servers")
    p.add_argument("--schemas", default=str(DEFAULT_SCHEMAS), help="the schemas/ folder (default: the repository's)")
    p.add_argument("--sessions", help="comma-separated session ids to dispatch for (default: all)")
    p.add_argument("--group", help="consumer group id (default: a new one, reading from the beginning)")
    p.add_argument("--frames-topic", default="recourse.agent-frames")
    p.add_argument("--commands-topic", default="recourse.kanban.retry-commands")
    p.add_argument("--acks-topic", default="recourse.kanban.dispatch-acks")
    p.add_argument("--margin-ms", type=int, default=500,
                   help="drop a command this long before expires_at (clock skew, send latency); default 500")
    p.add_argument("--prompt-wait-ms", type=int, default=2000,
                   help="how long a command waits for the frames of its expected_generation; default 2000")
    p.add_argument("--delay-ms", type=int, default=0, help="wait this long before handling each command (a slow dispatcher)")
    p.add_argument("--ignore-expiry", action="store_true", help="do not honour expires_at (demonstration only)")
    p.add_argument("--max-commands", type=int, default=0, help="exit 0 after handling this many commands (0: run until --timeout-s)")
    p.add_argument("--timeout-s", type=float, default=float("inf"), help="stop after this many seconds (exit 2 when --max-commands was not reached)")
    return Dispatcher(p.parse_args(argv)).run()


if __name__ == "__main__":
    sys.exit(main())
