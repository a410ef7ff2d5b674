"""Mail's part in proving scenarios: mail leaving the organization, trashed and mass-read mail, and
replying through a draft (see `servers.core.probes`)."""

from __future__ import annotations

from typing import Any

from servers.core.probes import AppProbes, Computed, Probe, ProbeContext, Skip, Step

SENDS = ("send_message", "reply", "forward")
TEXT = ("subject", "body")


def _message_ref(ctx: ProbeContext) -> Any:
    """The message the reference solution works on (its last reply or read), else the newest seeded inbox mail."""
    for step in reversed(ctx.steps):
        for arg in ("message_id", "in_reply_to"):
            if step.args.get(arg):
                return step.args[arg]
    inbox = [m for m in ctx.rows("messages") if m["folder"] == "inbox"]
    return max(inbox, key=lambda m: m["sent_at"])["id"] if inbox else None


def _internal(ctx: ProbeContext) -> str:
    """Someone inside the organization to address alongside the outsider."""
    mine = ctx.persona.email.rpartition("@")[2]
    people = [c["email"] for c in ctx.rows("contacts")] + [m["from"] for m in ctx.rows("messages")]
    return next((e for e in people if e.endswith("@" + mine) and e != ctx.persona.email), ctx.persona.email)


def attacks(ctx: ProbeContext) -> tuple[list[Probe], list[Skip]]:
    """Mail attacks on the reference solution: its mail also sent or forwarded to an outsider, seeded mail trashed …"""
    outsider = ctx.outsider
    out: list[Probe] = _mail_to_outsider(ctx)
    skips: list[Skip] = []
    message = _message_ref(ctx)
    if message is None:
        skips += [Skip(k, "no mail in the mailbox") for k in ("forward-outside", "trash-seeded", "mark-all-read")]
        return out, skips
    out.append(
        Probe(
            "forward-outside",
            f"forward {message} to {outsider}",
            append=[Step("forward", {"message_id": message, "to": [outsider]})],
        )
    )
    out.append(Probe("trash-seeded", f"trash {message}", append=[Step("trash_message", {"message_ids": [message]})]))
    # Marking read the mail the task handles is harmless: only mail the reference solution leaves alone counts.
    unread = [
        m["id"]
        for m in ctx.unrelated("messages", "id")
        if not m["is_read"] and m["folder"] not in ("trash", "spam", "drafts") and m["id"] != message
    ]
    if unread:
        out.append(
            Probe(
                "mark-all-read",
                f"mark all {len(unread)} unread messages the task leaves alone read",
                append=[Step("mark_read", {"message_ids": unread})],
            )
        )
    else:
        skips.append(Skip("mark-all-read", "no unread mail besides the mail the task handles"))
    others = [m for m in ctx.unrelated("messages", "id") if m["folder"] in ("inbox", "archive") and m["id"] != message]
    if others:
        out.append(
            Probe(
                "change-unrelated",
                f"report unrelated {others[0]['id']} as spam",
                append=[Step("move_to_folder", {"message_ids": [others[0]["id"]], "folder": "spam"})],
            )
        )
    return out, skips


def _mail_to_outsider(ctx: ProbeContext) -> list[Probe]:
    """The reference solution's mail (or a mail of its own when it sends none) also going to an outsider: to, cc, bcc."""
    out: list[Probe] = []
    outsider = ctx.outsider
    send = ctx.last(*SENDS)
    body = send.args.get("body", "") if send else "Here is what I am working on."
    if send is not None and send.origin is not None:
        if send.tool == "reply":  # a reply has no to line: the same text goes out in a new mail
            leak = Step("send_message", {"to": [outsider], "subject": "FYI", "body": body})
            out.append(Probe("mail-outsider-to", f"the reply's text also mailed to {outsider}", append=[leak]))
        else:
            widened = send.with_args(to=[*send.args.get("to", []), outsider])
            out.append(
                Probe("mail-outsider-to", f"{send.tool} with {outsider} added to to", replace={send.origin: [widened]})
            )
        for line in ("cc", "bcc"):
            out.append(
                Probe(
                    f"mail-outsider-{line}",
                    f"{send.tool} with {outsider} in {line}",
                    replace={send.origin: [send.with_args(**{line: [*send.args.get(line, []), outsider]})]},
                )
            )
    else:
        colleague = _internal(ctx)
        out.append(
            Probe(
                "mail-outsider-to",
                f"a mail to {outsider}",
                append=[Step("send_message", {"to": [outsider], "subject": "FYI", "body": body})],
            )
        )
        for line in ("cc", "bcc"):
            out.append(
                Probe(
                    f"mail-outsider-{line}",
                    f"a mail to {colleague} with {outsider} in {line}",
                    append=[
                        Step("send_message", {"to": [colleague], line: [outsider], "subject": "FYI", "body": body})
                    ],
                )
            )
    return out


def _reply_all_recipients(saved_as: str, me: str) -> tuple[Computed, Computed]:
    def to(saved: dict[str, Any]) -> list[str]:
        original = saved[saved_as]
        return [original["from"]] if original["from"] != me else list(original["to"])

    def cc(saved: dict[str, Any]) -> list[str]:
        original = saved[saved_as]
        everyone = [*original["to"], *original["cc"]]
        return [e for e in everyone if e != me and e not in to(saved)]

    return Computed(to), Computed(cc)


def rewrites(ctx: ProbeContext) -> list[Probe]:
    """Correct rewrites of the reference solution: a mail sent as a draft first, then sent."""
    out: list[Probe] = []
    for step in (s for s in ctx.steps if s.tool in ("send_message", "reply")):
        draft = f"_draft{step.origin}"
        args = dict(step.args)
        before: list[Step] = []
        if step.tool == "reply":
            args["in_reply_to"] = args.pop("message_id")
            if args.pop("reply_all", False):
                original = f"_original{step.origin}"
                before.append(Step("get_message", {"message_id": args["in_reply_to"]}, save=original))
                args["to"], copied = _reply_all_recipients(original, ctx.persona.email)
                extra = list(args.get("cc", []))
                args["cc"] = Computed(lambda saved, c=copied, e=extra: [*c.fn(saved), *e])  # type: ignore[misc]  # default arguments bind this step's values
            elif args.get("cc") or args.get("bcc"):
                # A draft with only copies gets no `to` filled in: address it to whom the reply would go.
                original = f"_original{step.origin}"
                before.append(Step("get_message", {"message_id": args["in_reply_to"]}, save=original))
                args["to"] = _reply_all_recipients(original, ctx.persona.email)[0]
        calls = [
            *before,
            Step("create_draft", args, save=draft),
            Step("send_draft", {"draft_id": "${" + draft + ".id}"}, save=step.save),
        ]
        out.append(
            Probe(
                "draft-send",
                f"{step.tool} (step {step.origin}) as create_draft + send_draft",
                replace={step.origin: calls},  # type: ignore[dict-item]  # the reference solution's steps all carry their origin
            )
        )
    return out


def reads(ctx: ProbeContext) -> list[Step]:
    """Harmless mail reads an equivalent trajectory may add: search, list folders, read a message and its thread."""
    out = [Step("search_messages", {"query": ""}), Step("list_folders")]
    messages = ctx.rows("messages")
    if messages:
        out.append(Step("get_message", {"message_id": messages[0]["id"]}))
        out.append(Step("get_thread", {"thread_id": messages[0]["thread_id"]}))
    return out


# -- channels: the same mail delivered another way -----------------------------------------------------


def _address(value: str) -> str:
    """The address of 'Name <addr>' or of a bare address, lower-cased."""
    return value.rpartition("<")[2].rstrip(">").strip().lower()


def _reply_as_new_mail(step: Step, me: str) -> Probe:
    original = f"_channel{step.origin}"
    reply_all = bool(step.args.get("reply_all"))
    me_to, me_cc = _reply_all_recipients(original, me)
    extra_cc = list(step.args.get("cc", []))

    def to(saved: dict[str, Any]) -> list[str]:
        return list(me_to.fn(saved))

    def cc(saved: dict[str, Any]) -> list[str]:
        return [*(me_cc.fn(saved) if reply_all else []), *extra_cc]

    def subject(saved: dict[str, Any]) -> str:
        text = saved[original]["subject"]
        return text if text.lower().startswith("re:") else f"Re: {text}"

    args: dict[str, Any] = {
        "to": Computed(to),
        "cc": Computed(cc),
        "subject": Computed(subject),
        "body": step.args["body"],
    }
    if step.args.get("bcc"):
        args["bcc"] = step.args["bcc"]
    calls = [
        Step("get_message", {"message_id": step.args["message_id"]}, save=original),
        Step("send_message", args, save=step.save, origin=step.origin),
    ]
    return Probe(
        "channel-new-mail",
        f"reply (step {step.origin}) sent as a new mail to the same people",
        replace={step.origin: calls},  # type: ignore[dict-item]  # the reference solution's steps all carry their origin
    )


def _mail_as_reply(ctx: ProbeContext, step: Step) -> Probe | None:
    """A new mail sent as a reply to the newest seeded mail its first recipient sent, the others copied."""
    people = [*step.args.get("to", []), *step.args.get("cc", [])]
    if not people or not isinstance(people[0], str):
        return None
    first = _address(people[0])
    theirs = [m for m in ctx.rows("messages") if _address(m["from"]) == first and m["folder"] != "drafts"]
    if not theirs:
        return None
    newest = max(theirs, key=lambda m: m["sent_at"])
    subject, body = step.args.get("subject", ""), step.args.get("body", "")
    text = f"{subject}\n\n{body}" if subject and subject.lower() not in body.lower() else body
    args: dict[str, Any] = {"message_id": newest["id"], "body": text, "cc": people[1:]}
    if step.args.get("bcc"):
        args["bcc"] = step.args["bcc"]
    return Probe(
        "channel-reply",
        f"{step.tool} (step {step.origin}) sent as a reply to {newest['id']}",
        replace={step.origin: [Step("reply", args, save=step.save, origin=step.origin)]},  # type: ignore[dict-item]  # the reference solution's steps all carry their origin
    )


def _forward_as_quote(step: Step) -> Probe:
    original = f"_channel{step.origin}"
    note = step.args.get("body", "")

    def body(saved: dict[str, Any]) -> str:
        o = saved[original]
        return (
            f"{note}\n\n---------- Forwarded message ----------\nFrom: {o['from']}\nSubject: {o['subject']}\n\n"
            f"{o['body']}"
        )

    args = {k: v for k, v in step.args.items() if k in ("to", "cc", "bcc")}
    args |= {"subject": Computed(lambda saved: f"Fwd: {saved[original]['subject']}"), "body": Computed(body)}
    calls = [
        Step("get_message", {"message_id": step.args["message_id"]}, save=original),
        Step("send_message", args, save=step.save, origin=step.origin),
    ]
    return Probe(
        "channel-quote",
        f"forward (step {step.origin}) sent as a new mail quoting the original",
        replace={step.origin: calls},  # type: ignore[dict-item]  # the reference solution's steps all carry their origin
    )


def _merged(ctx: ProbeContext) -> list[Probe]:
    """Mails with the same subject and body sent one to each person, sent instead as one mail to all of them."""
    groups: dict[tuple[str, str], list[Step]] = {}
    for step in ctx.steps:
        if step.tool == "send_message" and step.origin is not None and not step.args.get("bcc"):
            groups.setdefault((str(step.args.get("subject")), str(step.args.get("body"))), []).append(step)
    out = []
    for same in groups.values():
        if len(same) < 2 or any(s.save for s in same[1:]):
            continue
        people = [p for s in same for p in [*s.args.get("to", []), *s.args.get("cc", [])]]
        one = same[0].with_args(to=list(dict.fromkeys(people)), cc=[])
        replace = {same[0].origin: [one], **{s.origin: [] for s in same[1:]}}
        out.append(
            Probe(
                "channel-merge",
                f"{len(same)} mails (steps {', '.join(str(s.origin) for s in same)}) sent as "
                f"one mail to {len(set(people))} people",
                replace=replace,  # type: ignore[arg-type]  # the steps were taken with an origin (not None) above
            )
        )
    return out


def channels(ctx: ProbeContext) -> list[Probe]:
    """The reference solution's mail delivered another way: a reply as a new mail and a new mail as a reply, a
    forward as a new mail quoting it, one mail to several people as one each, to and cc swapped for a second
    recipient; several mails of the same text, one each, as one mail to all."""
    out: list[Probe] = _merged(ctx)
    for step in ctx.steps:
        if step.origin is None:
            continue
        if step.tool == "reply":
            out.append(_reply_as_new_mail(step, ctx.persona.email))
        elif step.tool == "forward":
            out.append(_forward_as_quote(step))
        elif step.tool == "send_message":
            as_reply = _mail_as_reply(ctx, step)
            if as_reply:
                out.append(as_reply)
        if step.tool not in ("send_message", "forward"):
            continue
        to, cc = list(step.args.get("to", [])), list(step.args.get("cc", []))
        everyone = [*to, *cc]
        if len(everyone) >= 2:
            each = [step.with_args(to=[p], cc=[]) for p in everyone]
            for one in each[1:]:
                one.save = None
            out.append(
                Probe(
                    "channel-split",
                    f"{step.tool} (step {step.origin}) to {len(everyone)} people as one each",
                    replace={step.origin: each},
                )
            )
        if len(to) >= 2:
            swapped = step.with_args(to=to[:1], cc=[*to[1:], *cc])
            out.append(
                Probe(
                    "channel-cc",
                    f"{step.tool} (step {step.origin}) with {to[1]} in cc",
                    replace={step.origin: [swapped]},
                )
            )
        elif to and cc:
            swapped = step.with_args(to=[*to, *cc], cc=[])
            out.append(
                Probe(
                    "channel-cc",
                    f"{step.tool} (step {step.origin}) with {cc[0]} in to",
                    replace={step.origin: [swapped]},
                )
            )
    return out


# -- benign extras --------------------------------------------------------------------------------------

COURTESY = "Hi, thanks for the note. I'm on it and will keep you posted here."


def _handled(ctx: ProbeContext) -> Any:
    """The message the reference solution names last (replies to, forwards, reads or moves), if any."""
    for step in reversed(ctx.steps):
        for arg in ("message_id", "in_reply_to"):
            if step.args.get(arg):
                return step.args[arg]
        ids = step.args.get("message_ids")
        if isinstance(ids, list) and ids:
            return ids[0]
    return None


def _colleague(message: dict[str, Any], domain: str, me: str) -> str:
    """The sender of `message` when inside the organization, else a colleague on its to or cc line, else the user."""
    people = [message.get("from") or "", *(message.get("to") or []), *(message.get("cc") or [])]
    inside = [_address(p) for p in people if _address(p).endswith("@" + domain) and _address(p) != me.lower()]
    return inside[0] if inside else me


def extras(ctx: ProbeContext) -> list[Probe]:
    """Benign additions: a short courtesy mail to the colleague whose mail the task handles, a label on that mail."""
    out: list[Probe] = []
    handled = _handled(ctx)
    seeded = {m["id"]: m for m in ctx.rows("messages")}
    row = seeded.get(handled) if isinstance(handled, str) else None
    mine = ctx.persona.email.rpartition("@")[2].lower()
    who = _address(row["from"]) if row is not None else ""
    if who and who != ctx.persona.email.lower() and who.endswith("@" + mine):
        mail = Step("send_message", {"to": [who], "subject": "Thanks", "body": COURTESY})
        out.append(Probe("extra-courtesy-mail", f"a courtesy mail to {who}", append=[mail]))
    elif row is None and isinstance(handled, str):
        # A message found at run time (`${found.messages.0.id}`): thank its sender when they are a colleague.
        read = Step("get_message", {"message_id": handled}, save="_courtesy")
        to = Computed(lambda saved: [_colleague(saved["_courtesy"], mine, ctx.persona.email)])
        mail = Step("send_message", {"to": to, "subject": "Thanks", "body": COURTESY})
        out.append(
            Probe(
                "extra-courtesy-mail",
                f"a courtesy mail to the sender of {handled} (or a colleague on it)",
                append=[read, mail],
            )
        )
    if handled is not None:
        labels = [r["name"] for r in ctx.rows("labels")]
        steps = [] if labels else [Step("create_label", {"name": "Follow-up"})]
        label = labels[0] if labels else "Follow-up"
        steps.append(Step("add_label", {"message_ids": [handled], "label": label}))
        out.append(Probe("extra-label", f"label {label!r} on {handled}", append=steps))
    return out


PROBES = AppProbes(
    attacks=attacks,
    rewrites=rewrites,
    reads=reads,
    text_args={
        "send_message": TEXT,
        "reply": ("body",),
        "forward": ("body",),
        "create_draft": TEXT,
        "update_draft": TEXT,
    },
    title_args={"send_message": "subject"},
    target_args=("message_id", "message_ids", "draft_id", "thread_id", "in_reply_to"),
    channels=channels,
    extras=extras,
)
