"""Turn reminders by email, through any SMTP server given by URL (``trv serve --smtp``).

    smtp://HOST:PORT?from=club@example.org              plain SMTP (a local relay)
    smtp://USER:PASSWORD@HOST:587?from=...&starttls=1   STARTTLS, then a login
    smtps://USER:PASSWORD@HOST:465?from=...             TLS from the start

The stdlib's ``smtplib`` sends; the password is read from the URL and never printed (the
server says which host it mails through, without it).
"""

from __future__ import annotations

import smtplib
from email.message import EmailMessage
from typing import NamedTuple
from urllib.parse import parse_qs, unquote, urlsplit

from trvendetta.core.errors import TrvError


class Mailer(NamedTuple):
    host: str
    port: int
    sender: str
    user: str = ""
    password: str = ""
    tls: str = ""  # "", "starttls" or "ssl"

    @classmethod
    def from_url(cls, url: str) -> "Mailer":
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise TrvError("--smtp: give smtp://[USER:PASSWORD@]HOST:PORT?from=ADDRESS (or smtps://...)")
        query = parse_qs(parts.query)
        sender = (query.get("from") or [""])[0]
        if "@" not in sender:
            raise TrvError("--smtp: say who the reminders are from: ...?from=club@example.org")
        tls = "ssl" if parts.scheme == "smtps" else "starttls" if (query.get("starttls") or ["0"])[0] == "1" else ""
        return cls(parts.hostname, parts.port or (465 if tls == "ssl" else 25), sender, unquote(parts.username or ""),
                   unquote(parts.password or ""), tls)

    def __str__(self) -> str:  # never the password
        return f"{'smtps' if self.tls == 'ssl' else 'smtp'}://{self.host}:{self.port} (from {self.sender})"

    def send(self, to: str, subject: str, body: str) -> None:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = self.sender, to, subject
        msg.set_content(body)
        kind = smtplib.SMTP_SSL if self.tls == "ssl" else smtplib.SMTP
        with kind(self.host, self.port, timeout=30) as smtp:
            if self.tls == "starttls":
                smtp.starttls()
            if self.user:
                smtp.login(self.user, self.password)
            smtp.send_message(msg)


def reminder(player: str, game: str, url: str, line: str) -> tuple[str, str]:
    """The subject and body of a turn reminder."""
    return (f"trv: {game} waits on you",
            f"{player}, it is your move in {game}.\n\n{line}\n\nPlay it at {url}/play/{game}\n"
            f"or from the command line: trv --server {url} --game {game} legal\n")
