"""A fake model server for the model-agent tests: Chat Completions and Messages wire formats, streaming and not.

The model's name picks its behaviour:

- `oracle`: solves the scenario by emitting its reference solution as tool calls, one per turn (values
  saved by a step are read back from the tool results in the conversation), then answers in text.
- `malformed`: first sends arguments that are not JSON (OpenAI) or a tool that does not exist (Anthropic);
  goes on like `oracle` only once the error came back flagged as one.
- `flaky`: answers 429 (with Retry-After) to the first two requests, then like `oracle`.
- `slow`: takes 3 s over its first request, then answers at once like `oracle`.
- `loop`: never stops: searches the mail, turn after turn.
- `broken`: always 503 with an error message.

Every request is recorded (`FakeModel.requests`), with the peak of requests in flight.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from typing import Any

import anyio
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from orchestrator.agents.base import MissingValue, substitute
from orchestrator.scenario.model import OracleStep


class FakeModel:
    def __init__(self, oracle: list[OracleStep], delay_s: float = 0.0) -> None:
        self.oracle = oracle
        self.delay_s = delay_s
        self.requests: list[dict[str, Any]] = []
        self.counts: dict[str, int] = {}
        self.in_flight = 0
        self.peak = 0
        self.lock = threading.Lock()
        self.app = Starlette(
            routes=[
                Route("/v1/chat/completions", self.chat, methods=["POST"]),
                Route("/v1/messages", self.messages, methods=["POST"]),
            ]
        )

    # ---- the scripted model, on a neutral view: [(call name, arguments, result text, is_error)] so far ----
    def decide(self, model: str, history: list[tuple[str, dict | None, str, bool]], api: str) -> dict[str, Any] | None:
        """The next tool call {name, arguments (dict or raw string)}, or None to finish."""
        if model == "loop":
            return {"name": "mail__search_messages", "arguments": {"query": f"berlin {len(history)}"}}
        if model == "malformed":
            if not history:
                return (
                    {"name": "mail__search_messages", "arguments": "{query: berlin"}
                    if api == "openai"
                    else {"name": "mail__no_such_tool", "arguments": {}}
                )
            if not history[0][3]:
                raise AssertionError("the malformed call did not come back as an error")
            history = history[1:]
        done = len(history)
        if done >= len(self.oracle):
            return None
        saved: dict[str, Any] = {}
        for step, (_, _, text, _) in zip(self.oracle, history, strict=False):
            if step.save:
                try:
                    saved[step.save] = json.loads(text)
                except ValueError:
                    saved[step.save] = text
        step = self.oracle[done]
        try:
            arguments = substitute(step.args, saved)
        except MissingValue as exc:
            raise AssertionError(f"the fake model could not build step {done}: {exc}") from None
        return {"name": step.tool, "arguments": arguments}

    def _refuse(self, model: str) -> Response | None:
        with self.lock:
            n = self.counts[model] = self.counts.get(model, 0) + 1
        if model == "flaky" and n <= 2:
            return JSONResponse(
                {"error": {"message": "rate limited, slow down", "type": "rate_limit_error"}},
                429,
                headers={"retry-after": "0.05"},
            )
        if model == "broken":
            return JSONResponse(
                {"error": {"message": "the model is overloaded: try again later", "type": "overloaded_error"}}, 503
            )
        return None

    async def _enter(self, body: dict[str, Any], api: str) -> None:
        with self.lock:
            self.requests.append({"api": api, "body": body})
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
        if self.delay_s:
            await anyio.sleep(self.delay_s)

    def _leave(self) -> None:
        with self.lock:
            self.in_flight -= 1

    # ---- Chat Completions ----
    async def chat(self, request: Request) -> Response:
        body = await request.json()
        await self._enter(body, "openai")
        try:
            refused = self._refuse(body["model"])
            if refused:
                return refused
            if body["model"] == "slow" and self.counts["slow"] == 1:
                await anyio.sleep(3)
            history: list[tuple[str, Any, str, bool]] = []
            calls: dict[str, tuple[str, Any]] = {}
            for message in body["messages"]:
                for call in message.get("tool_calls") or []:
                    calls[call["id"]] = (call["function"]["name"], call["function"]["arguments"])
                if message["role"] == "tool":
                    name, args = calls[message["tool_call_id"]]
                    history.append(
                        (
                            name,
                            args,
                            message["content"].removeprefix("Error: "),
                            message["content"].startswith("Error: "),
                        )
                    )
            step = self.decide(body["model"], history, "openai")
            usage = {
                "prompt_tokens": len(json.dumps(body)) // 4,
                "completion_tokens": 12,
                "total_tokens": 0,
                "prompt_tokens_details": {"cached_tokens": 100},
            }
            if step is None:
                message: dict[str, Any] = {"role": "assistant", "content": "Done: the trip is planned."}
                finish = "stop"
            else:
                raw = step["arguments"] if isinstance(step["arguments"], str) else json.dumps(step["arguments"])
                call = {
                    "id": f"call_{len(body['messages'])}",
                    "type": "function",
                    "function": {"name": step["name"], "arguments": raw},
                }
                message = {"role": "assistant", "content": None, "tool_calls": [call]}
                finish = "tool_calls"
            base = {"id": f"chatcmpl-{len(self.requests)}", "created": int(time.time()), "model": body["model"]}
            if not body.get("stream"):
                return JSONResponse(
                    base
                    | {
                        "object": "chat.completion",
                        "usage": usage,
                        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                    }
                )
            chunks = [{"role": "assistant", "content": message["content"]}] if message["content"] else []
            for call in message.get("tool_calls", []):
                raw = call["function"]["arguments"]
                half = len(raw) // 2
                chunks.append(
                    {
                        "role": "assistant",
                        "tool_calls": [
                            {
                                "index": 0,
                                "id": call["id"],
                                "type": "function",
                                "function": {"name": call["function"]["name"], "arguments": raw[:half]},
                            }
                        ],
                    }
                )
                chunks.append({"tool_calls": [{"index": 0, "function": {"arguments": raw[half:]}}]})
            events = [
                base | {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": d, "finish_reason": None}]}
                for d in chunks
            ]
            events.append(
                base
                | {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}
            )
            events.append(base | {"object": "chat.completion.chunk", "choices": [], "usage": usage})
            text = "".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n"
            return StreamingResponse(iter([text]), media_type="text/event-stream")
        finally:
            self._leave()

    # ---- Messages ----
    async def messages(self, request: Request) -> Response:
        body = await request.json()
        await self._enter(body, "anthropic")
        try:
            refused = self._refuse(body["model"])
            if refused:
                return refused
            if body["model"] == "slow" and self.counts["slow"] == 1:
                await anyio.sleep(3)
            history: list[tuple[str, Any, str, bool]] = []
            uses: dict[str, tuple[str, Any]] = {}
            for message in body["messages"]:
                if isinstance(message["content"], str):
                    continue
                for block in message["content"]:
                    if block["type"] == "tool_use":
                        uses[block["id"]] = (block["name"], block["input"])
                    elif block["type"] == "tool_result":
                        name, args = uses[block["tool_use_id"]]
                        content = (
                            block["content"]
                            if isinstance(block["content"], str)
                            else "".join(p["text"] for p in block["content"])
                        )
                        history.append((name, args, content, bool(block.get("is_error"))))
            step = self.decide(body["model"], history, "anthropic")
            usage = {
                "input_tokens": len(json.dumps(body)) // 4,
                "output_tokens": 12,
                "cache_read_input_tokens": 100,
                "cache_creation_input_tokens": 0,
            }
            if step is None:
                content: list[dict[str, Any]] = [{"type": "text", "text": "Done: the trip is planned."}]
                stop = "end_turn"
            else:
                content = [
                    {"type": "text", "text": "Next step."},
                    {
                        "type": "tool_use",
                        "id": f"toolu_{len(body['messages'])}",
                        "name": step["name"],
                        "input": step["arguments"],
                    },
                ]
                stop = "tool_use"
            message = {
                "id": f"msg_{len(self.requests)}",
                "type": "message",
                "role": "assistant",
                "model": body["model"],
                "content": content,
                "stop_reason": stop,
                "stop_sequence": None,
                "usage": usage,
            }
            if not body.get("stream"):
                return JSONResponse(message)
            events: list[tuple[str, dict[str, Any]]] = [
                (
                    "message_start",
                    {
                        "type": "message_start",
                        "message": message
                        | {"content": [], "stop_reason": None, "usage": usage | {"output_tokens": 1}},
                    },
                )
            ]
            for i, block in enumerate(content):
                if block["type"] == "text":
                    events += [
                        (
                            "content_block_start",
                            {"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}},
                        ),
                        (
                            "content_block_delta",
                            {
                                "type": "content_block_delta",
                                "index": i,
                                "delta": {"type": "text_delta", "text": block["text"]},
                            },
                        ),
                    ]
                else:
                    raw = json.dumps(block["input"])
                    half = len(raw) // 2
                    events += [
                        (
                            "content_block_start",
                            {
                                "type": "content_block_start",
                                "index": i,
                                "content_block": {
                                    "type": "tool_use",
                                    "id": block["id"],
                                    "name": block["name"],
                                    "input": {},
                                },
                            },
                        ),
                        (
                            "content_block_delta",
                            {
                                "type": "content_block_delta",
                                "index": i,
                                "delta": {"type": "input_json_delta", "partial_json": raw[:half]},
                            },
                        ),
                        (
                            "content_block_delta",
                            {
                                "type": "content_block_delta",
                                "index": i,
                                "delta": {"type": "input_json_delta", "partial_json": raw[half:]},
                            },
                        ),
                    ]
                events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
            events += [
                (
                    "message_delta",
                    {
                        "type": "message_delta",
                        "delta": {"stop_reason": stop, "stop_sequence": None},
                        "usage": {"output_tokens": 12},
                    },
                ),
                ("message_stop", {"type": "message_stop"}),
            ]
            text = "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events)
            return StreamingResponse(iter([text]), media_type="text/event-stream")
        finally:
            self._leave()


class Served:
    """The fake model on 127.0.0.1 in a thread: `url` is the OpenAI base URL (`…/v1`), `root` the Anthropic one."""

    def __init__(self, model: FakeModel) -> None:
        self.model = model
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        port = self.sock.getsockname()[1]
        self.root = f"http://127.0.0.1:{port}"
        self.url = f"{self.root}/v1"
        self.server = uvicorn.Server(uvicorn.Config(model.app, log_level="error", lifespan="off"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> Served:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(5)
        self.sock.close()
