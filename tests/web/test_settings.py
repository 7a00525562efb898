"""The page's settings (``DISPATCH_WEB_*``) and ``dispatch web``: a wrong value stops
with one line and exit code 2, before anything is opened."""

from __future__ import annotations

import pytest

from bot.__main__ import main
from bot.config import Config, ConfigError, WebSettings


def test_the_page_is_off_unless_set() -> None:
    assert Config.from_env({}).web == WebSettings()


def test_the_settings_are_read_and_the_url_loses_its_trailing_slash() -> None:
    web = Config.from_env(
        {
            "DISPATCH_WEB_PORT": "8081",
            "DISPATCH_WEB_URL": "https://dispatch.example.org/",
            "DISPATCH_WEB_SECRET": "s" * 32,
            "DISPATCH_WEB_TRUST_PROXY": "1",
        }
    ).web
    assert web == WebSettings(
        port=8081, url="https://dispatch.example.org", secret="s" * 32, trust_proxy=True
    )


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("DISPATCH_WEB_PORT", "eighty", "must be a port"),
        ("DISPATCH_WEB_PORT", "70000", "must be a port"),
        ("DISPATCH_WEB_URL", "dispatch.example.org", "must be the page's address"),
        ("DISPATCH_WEB_SECRET", "short", "at least 16 characters"),
    ],
)
def test_a_wrong_setting_is_refused_in_one_line(name: str, value: str, said: str) -> None:
    with pytest.raises(ConfigError, match=said):
        Config.from_env({name: value})


@pytest.mark.parametrize("port", ["nine", "\u00b2", "0", "65536"])
def test_dispatch_web_refuses_words_it_does_not_take(
    capsys: pytest.CaptureFixture[str], port: str
) -> None:
    assert main(["web", "--port", port]) == 2
    err = capsys.readouterr().err
    assert "takes --port N" in err and "Traceback" not in err
