"""A fake LLM judge: an OpenAI-compatible Chat Completions server on 127.0.0.1, and a scenario with a `judge` check.

The judge says yes when the fenced text contains "approved" and not "not approved"; it counts its requests (a
rerun that hits the cache is visible) and can be made to fail. Used by tests/verify/test_judge.py and the
Ray tests (a worker process asks it too).
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import uvicorn
from helpers import free_port
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

SCENARIO = """\
id: judge-approval
title: Tell Priya her trip is approved
persona: {name: Dana Lee, email: dana@acme.test, timezone: Europe/Berlin}
clock: {start: "2026-03-02T09:00:00+01:00", mode: frozen}
instruction: Priya asked whether her Berlin trip is approved. It is; tell her.
apps:
  mail:
    contacts: [{email: priya@acme.test, name: Priya Shah}]
    messages:
      - id: ask
        from: Priya Shah <priya@acme.test>
        to: [dana@acme.test]
        subject: Berlin trip
        sent_at: "{{ today 08:12 }}"
        body: Hi Dana, is my Berlin trip approved? Priya
stages:
  - name: reply
    checks:
      - app: mail
        table: messages
        where: {folder: sent, to: {contains: priya@acme.test}}
      - judge:
          rubric: the reply tells Priya that her trip is approved
          app: mail
          table: messages
          added: true
          where: {folder: sent}
          field: body
allow: {mail: {messages: [added]}}
oracle:
  - {tool: mail__reply, args: {message_id: ask, body: "BODY"}, unchecked: [body]}
"""


class FakeJudge:
    """Says yes when the fenced text contains "approved" and not "not approved"; `mode` can make it fail."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.mode = "normal"  # or "error" (HTTP 500) or "nonsense"
        self.port = free_port()
        app = Starlette(routes=[Route("/v1/chat/completions", self.completions, methods=["POST"])])
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    async def completions(self, request: Request) -> JSONResponse:
        body = await request.json()
        self.requests.append(body)
        if self.mode == "error":
            return JSONResponse(
                {"error": {"message": "the judge is overloaded", "type": "server_error"}}, status_code=500
            )
        user = body["messages"][-1]["content"]
        text = user.split("<<<TEXT", 1)[1].rsplit("TEXT>>>", 1)[0].lower()
        yes = "approved" in text and "not approved" not in text
        content = (
            "I cannot tell."
            if self.mode == "nonsense"
            else json.dumps(
                {
                    "verdict": "yes" if yes else "no",
                    "rationale": "it says approved" if yes else "it never says the trip is approved",
                }
            )
        )
        return JSONResponse(
            {
                "id": f"chatcmpl-{len(self.requests)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body["model"],
                "choices": [
                    {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
                ],
                "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
            }
        )

    def __enter__(self) -> FakeJudge:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the fake judge did not start"
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
