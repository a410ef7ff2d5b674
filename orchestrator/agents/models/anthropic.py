"""`--agent anthropic:MODEL`: the Messages API through the `anthropic` SDK."""

from __future__ import annotations

import os
from typing import Any

import anthropic

from orchestrator.agents.models.convert import anthropic_tools
from orchestrator.agents.models.loop import RETRY_STATUS, Call, ModelAgent, Outcome, Reply
from orchestrator.agents.models.options import EndpointGate, ModelOptions


def _block(block: Any) -> dict[str, Any]:
    """A content block of the reply as a request parameter (what goes back in the next request)."""
    kind = block.type
    if kind == "text":
        return {"type": "text", "text": block.text}
    if kind == "tool_use":
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    if kind == "thinking":
        return {"type": "thinking", "thinking": block.thinking, "signature": block.signature}
    return block.model_dump(mode="json", exclude_none=True)


class AnthropicAgent(ModelAgent):
    """`anthropic:MODEL`: the loop over the Messages API; the key is ANTHROPIC_API_KEY, not needed with a base URL."""

    api = "anthropic"

    def __init__(self, model: str, options: ModelOptions, gate: EndpointGate | None = None) -> None:
        super().__init__(model, options, gate)
        base_url = options.base_url or os.environ.get("ANTHROPIC_BASE_URL") or None
        key = options.api_key or os.environ.get("ANTHROPIC_API_KEY") or ("none" if base_url else None)
        if key is None:
            raise ValueError(
                "--agent anthropic: ANTHROPIC_API_KEY is not set (or give --base-url for a server that needs no key)"
            )
        self.base_url = base_url
        self.client = anthropic.AsyncAnthropic(
            api_key=key, base_url=base_url, max_retries=0, timeout=options.request_timeout_s
        )
        self.system = ""
        self.params: dict[str, Any] = {}

    def start(self, system: str, task: str, tools: list[Any]) -> None:
        self.system = system
        self.tools = anthropic_tools(tools)
        self.messages = [{"role": "user", "content": task}]
        o = self.options
        params: dict[str, Any] = {"model": self.model, "max_tokens": o.max_tokens}
        if self.tools:
            params["tool_choice"] = {"type": "auto", "disable_parallel_tool_use": not o.parallel_tool_calls}
        body: dict[str, Any] = {}
        if o.temperature is not None:
            body["temperature"] = o.temperature
        if body:
            params["extra_body"] = body
        self.params = params  # the Messages API takes no seed

    def transcript(self) -> dict[str, Any]:
        return super().transcript() | {"base_url": self.base_url, "system": self.system, "request": self.params}

    async def request(self) -> Reply:
        kwargs: dict[str, Any] = {"system": self.system, "messages": self.messages, **self.params}
        if self.tools:
            kwargs["tools"] = self.tools
        if self.options.stream:
            async with self.client.messages.stream(**kwargs) as stream:
                message = await stream.get_final_message()
        else:
            message = await self.client.messages.create(**kwargs)
        blocks = [_block(b) for b in message.content]
        self.messages.append({"role": "assistant", "content": blocks})
        calls = [
            Call(
                b["id"],
                b["name"],
                b["input"] if isinstance(b["input"], dict) else None,
                None if isinstance(b["input"], dict) else "expected a JSON object",
            )
            for b in blocks
            if b["type"] == "tool_use"
        ]
        usage = message.usage
        cached = getattr(usage, "cache_read_input_tokens", None) or 0
        created = getattr(usage, "cache_creation_input_tokens", None) or 0
        return Reply(
            calls,
            message.stop_reason,
            input_tokens=(usage.input_tokens or 0) + cached + created,
            output_tokens=usage.output_tokens or 0,
            cached_tokens=cached,
        )

    def add_results(self, results: list[tuple[Call, Outcome]]) -> None:
        blocks = []
        for call, outcome in results:
            block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call.id, "content": outcome.text}
            if outcome.is_error:
                block["is_error"] = True
            blocks.append(block)
        self.messages.append({"role": "user", "content": blocks})

    def retryable(self, exc: BaseException) -> bool | None:
        if isinstance(exc, anthropic.APITimeoutError | anthropic.APIConnectionError):
            return True
        if isinstance(exc, anthropic.APIStatusError):
            return exc.status_code in RETRY_STATUS or exc.status_code >= 500
        if isinstance(exc, anthropic.AnthropicError):
            return False
        return None

    def describe(self, exc: BaseException) -> str:
        if isinstance(exc, anthropic.APIStatusError):
            return f"HTTP {exc.status_code}: {exc.message}"
        if isinstance(exc, anthropic.APIConnectionError):
            return f"{exc} ({self.base_url or 'https://api.anthropic.com'})"
        return str(exc) or type(exc).__name__
