"""Usage errors of the command line, in process: each exits 2 with one `error:` line that names what is wrong, before
any app server starts or any folder is made."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from helpers import SCENARIOS, TRAVEL_PATH
from typer.testing import CliRunner

from orchestrator.cli import app


def invoke(*args: str, env: dict[str, str | None] | None = None):  # noqa: ANN201 (click's Result)
    return CliRunner().invoke(app, [str(a) for a in args], env=env)


def error_lines(result) -> list[str]:  # noqa: ANN001
    return [line for line in result.stderr.splitlines() if line.strip()]


@pytest.mark.parametrize("command", ["run", "show", "serve"])
def test_a_missing_scenario_file_is_named(command: str, tmp_path: Path) -> None:
    missing = tmp_path / "missing.yaml"
    result = invoke(command, missing, "--out", tmp_path / "out") if command != "show" else invoke(command, missing)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {missing}: invalid scenario")
    assert "cannot read: No such file or directory" in result.stderr
    assert result.stdout == "" and not (tmp_path / "out").exists()


def test_an_invalid_scenario_file_is_named_with_its_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\ntitle: [unclosed\n")
    result = invoke("run", bad, "--backend", "inprocess", "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {bad}: invalid scenario")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["run", "serve", "validate"])
def test_a_bad_judge_spec_is_a_usage_error(command: str, tmp_path: Path) -> None:
    result = invoke(command, TRAVEL_PATH, "--judge", "nope")
    assert result.exit_code == 2
    assert error_lines(result) == [
        "error: --judge expects MODEL@BASE_URL such as gpt-4o-mini@https://api.openai.com/v1, not 'nope'"
    ]


@pytest.mark.parametrize(
    ("agent", "said"),
    [
        ("bogus", "error: unknown agent 'bogus': use oracle, noop, cmd:COMMAND, openai:MODEL or anthropic:MODEL"),
        ("cmd:", "error: --agent cmd: needs a command, e.g. --agent 'cmd:python examples/agent.py'"),
        ("openai:", "error: --agent openai: needs a model name, e.g. --agent openai:gpt-4.1"),
        ("anthropic: ", "error: --agent anthropic: needs a model name, e.g. --agent anthropic:claude-sonnet-4-5"),
    ],
)
def test_a_bad_agent_spec_is_a_usage_error(agent: str, said: str, tmp_path: Path) -> None:
    result = invoke("run", TRAVEL_PATH, "--agent", agent, "--backend", "inprocess", "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert error_lines(result) == [said]
    assert not (tmp_path / "out").exists()


def test_a_bad_agent_spec_is_a_usage_error_for_a_suite_too(tmp_path: Path) -> None:
    result = invoke("run", SCENARIOS, "--agent", "bogus", "--backend", "inprocess", "--out", tmp_path / "out")
    assert result.exit_code == 2 and error_lines(result)[0].startswith("error: unknown agent 'bogus'")
    assert not (tmp_path / "out").exists()


def test_a_cmd_agent_on_ray_is_refused_before_ray_starts(tmp_path: Path) -> None:
    result = invoke("run", TRAVEL_PATH, "--agent", "cmd:true", "--backend", "ray", "--out", tmp_path / "out")
    assert result.exit_code == 2 and error_lines(result)[0].startswith("error: --backend ray does not run cmd: agents")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["run", TRAVEL_PATH, "--timeout", "0"],
            "Invalid value for '--timeout': must be a number of seconds above 0, not 0",
        ),
        (["run", TRAVEL_PATH, "--timeout", "-5"], "Invalid value for '--timeout': must be a number of seconds above 0"),
        (
            ["run", TRAVEL_PATH, "--timeout", "nan"],
            "Invalid value for '--timeout': must be a number of seconds above 0",
        ),
        (["run", TRAVEL_PATH, "--noise", "loud"], "Invalid value for '--noise': unknown noise profile 'loud'"),
        (["run", TRAVEL_PATH, "--repeat", "0"], "Invalid value for '--repeat'"),
    ],
)
def test_bad_option_values_are_refused_by_the_parser(args: list, said: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert said in " ".join(result.stderr.replace("│", " ").split())


def test_an_unknown_backend_or_transport_is_a_usage_error(tmp_path: Path) -> None:
    backend = invoke("run", TRAVEL_PATH, "--backend", "nope", "--out", tmp_path / "out")
    assert backend.exit_code == 2
    assert error_lines(backend) == ["error: unknown backend 'nope'; use one of local, inprocess, docker, remote, ray"]
    transport = invoke("serve", TRAVEL_PATH, "--transport", "ftp", "--out", tmp_path / "out")
    assert transport.exit_code == 2 and error_lines(transport) == [
        "error: --transport must be stdio or http, not 'ftp'"
    ]
    assert not (tmp_path / "out").exists()


def test_a_scenario_naming_a_missing_table_exits_2_naming_file_and_table(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text(TRAVEL_PATH.read_text().replace("table: events", "table: meetings", 1))
    result = invoke("run", broken, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert f"{broken}:" in result.stderr and "has no table 'meetings'" in result.stderr


def test_validate_of_a_missing_folder_is_a_usage_error(tmp_path: Path) -> None:
    result = invoke("validate", tmp_path / "no" / "such" / "dir")
    assert result.exit_code == 2 and "no such file or folder" in result.stderr


def test_an_unknown_command_is_a_usage_error() -> None:
    result = invoke("frobnicate")
    assert result.exit_code == 2
    assert "No such command 'frobnicate'" in result.stderr and result.stdout == ""


def test_a_missing_list_folder_is_a_usage_error(tmp_path: Path) -> None:
    result = invoke("list", tmp_path / "nowhere")
    assert result.exit_code == 2 and error_lines(result) == [f"error: {tmp_path / 'nowhere'} does not exist"]


def test_serve_on_a_port_in_use_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = invoke(
            "serve",
            TRAVEL_PATH,
            "--backend",
            "inprocess",
            "--out",
            tmp_path / "out",
            "--transport",
            "http",
            "--port",
            str(port),
        )
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert error_lines(result) == [
        f"error: cannot listen on 127.0.0.1:{port}: Address already in use (another process uses it; pick another "
        "--port, or 0 for a free one)"
    ]
    assert not (tmp_path / "out").exists()


def test_serve_on_the_remote_backend_without_its_url_is_an_error(tmp_path: Path) -> None:
    result = invoke(
        "serve", TRAVEL_PATH, "--backend", "remote", "--out", tmp_path / "out", env={"CLAWGYM_APP_URL": None}
    )
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert len(error_lines(result)) == 1 and "CLAWGYM_APP_URL" in result.stderr
    assert not (tmp_path / "out").exists()
