"""`--agent openai:MODEL`: Chat Completions through the `openai` SDK, against any OpenAI-compatible server."""

from __future__ import annotations

import os
from typing import Any

import openai

from orchestrator.agents.models.convert import ERROR_PREFIX, openai_tools
from orchestrator.agents.models.loop import RETRY_STATUS, Call, ModelAgent, Outcome, Reply, parse_arguments
from orchestrator.agents.models.options import EndpointGate, ModelOptions


class OpenAIAgent(ModelAgent):
    """`openai:MODEL`: the loop over Chat Completions (OpenAI, or any compatible server at --base-url); the key is
    OPENAI_API_KEY, not needed with a base URL."""

    api = "openai"

    def __init__(self, model: str, options: ModelOptions, gate: EndpointGate | None = None) -> None:
        super().__init__(model, options, gate)
        base_url = options.base_url or os.environ.get("OPENAI_BASE_URL") or None
        key = options.api_key or os.environ.get("OPENAI_API_KEY") or ("none" if base_url else None)
        if key is None:
            raise ValueError(
                "--agent openai: OPENAI_API_KEY is not set (or give --base-url for a server that needs no key)"
            )
        self.base_url = base_url
        self.client = openai.AsyncOpenAI(
            api_key=key, base_url=base_url, max_retries=0, timeout=options.request_timeout_s
        )
        self.params: dict[str, Any] = {}

    def start(self, system: str, task: str, tools: list[Any]) -> None:
        self.tools = openai_tools(tools, strict=True)
        self.messages = [{"role": "system", "content": system}, {"role": "user", "content": task}]
        o = self.options
        # api.openai.com wants max_completion_tokens; other servers (vLLM, Ollama, llama.cpp) know max_tokens.
        params: dict[str, Any] = {
            "model": self.model,
            ("max_tokens" if self.base_url else "max_completion_tokens"): o.max_tokens,
        }
        if self.tools:
            params["parallel_tool_calls"] = o.parallel_tool_calls
        if o.temperature is not None:
            params["temperature"] = o.temperature
        if o.seed is not None:
            params["seed"] = o.seed
        self.params = params

    def transcript(self) -> dict[str, Any]:
        return super().transcript() | {"base_url": self.base_url, "request": self.params}

    async def request(self) -> Reply:
        if self.options.stream:
            return await self._streamed()
        response = await self.client.chat.completions.create(
            messages=self.messages, tools=self.tools or openai.NOT_GIVEN, **self.params
        )
        choice = response.choices[0]
        message = choice.message
        calls = [
            {"id": c.id, "type": "function", "function": {"name": c.function.name, "arguments": c.function.arguments}}
            for c in message.tool_calls or []
            if getattr(c, "function", None) is not None
        ]
        return self._reply(message.content, calls, choice.finish_reason, response.usage)

    async def _streamed(self) -> Reply:
        stream = await self.client.chat.completions.create(
            messages=self.messages,
            tools=self.tools or openai.NOT_GIVEN,
            stream=True,
            stream_options={"include_usage": True},
            **self.params,
        )
        text: list[str] = []
        calls: dict[int, dict[str, Any]] = {}
        finish = None
        usage = None
        async for chunk in stream:
            if chunk.usage is not None:
                usage = chunk.usage
            for choice in chunk.choices:
                delta = choice.delta
                if delta.content:
                    text.append(delta.content)
                for part in delta.tool_calls or []:
                    call = calls.setdefault(
                        part.index, {"id": "", "type": "function", "function": {"name": "", "arguments": ""}}
                    )
                    if part.id:
                        call["id"] = part.id
                    if part.function is not None:
                        call["function"]["name"] += part.function.name or ""
                        call["function"]["arguments"] += part.function.arguments or ""
                if choice.finish_reason:
                    finish = choice.finish_reason
        return self._reply("".join(text) or None, [calls[i] for i in sorted(calls)], finish, usage)

    def _reply(self, content: str | None, calls: list[dict[str, Any]], finish: str | None, usage: Any) -> Reply:
        for index, call in enumerate(calls):  # some servers send no call ids: the tool messages need one
            call["id"] = call["id"] or f"call_{len(self.messages)}_{index}"
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if calls:
            message["tool_calls"] = calls
        self.messages.append(message)
        parsed = []
        for c in calls:
            arguments, problem = parse_arguments(c["function"]["arguments"])
            parsed.append(Call(c["id"], c["function"]["name"], arguments, problem))
        details = getattr(usage, "prompt_tokens_details", None)
        return Reply(
            parsed,
            finish,
            input_tokens=getattr(usage, "prompt_tokens", 0) or 0,
            output_tokens=getattr(usage, "completion_tokens", 0) or 0,
            cached_tokens=getattr(details, "cached_tokens", 0) or 0,
        )

    def add_results(self, results: list[tuple[Call, Outcome]]) -> None:
        for call, outcome in results:  # OpenAI has no error flag on a tool message: the text says so
            self.messages.append(
                {
                    "role": "tool",
                    "tool_call_id": call.id,
                    "content": ERROR_PREFIX + outcome.text if outcome.is_error else outcome.text,
                }
            )

    def retryable(self, exc: BaseException) -> bool | None:
        if isinstance(exc, openai.APITimeoutError | openai.APIConnectionError):
            return True
        if isinstance(exc, openai.APIStatusError):
            return exc.status_code in RETRY_STATUS or exc.status_code >= 500
        if isinstance(exc, openai.OpenAIError):
            return False
        return None

    def describe(self, exc: BaseException) -> str:
        if isinstance(exc, openai.APIStatusError):
            return f"HTTP {exc.status_code}: {exc.message}"
        if isinstance(exc, openai.APIConnectionError):
            return f"{exc} ({self.base_url or 'https://api.openai.com/v1'})"
        return str(exc) or type(exc).__name__
