"""ask-colleague's phrasing tables: the rooms, topics, the questions put to the expert and the requests' wordings."""

from __future__ import annotations

ROOMS = (
    "Aurora",
    "Baltic",
    "Cedar",
    "Delta",
    "Fjord",
    "Granite",
    "Harbor",
    "Juniper",
    "Lagoon",
    "Meridian",
    "Orchard",
    "Quartz",
    "Summit",
    "Tundra",
    "Willow",
    "Zephyr",
)
TOPICS = (
    "onboarding revamp",
    "pricing review",
    "Q3 roadmap",
    "customer survey",
    "release retro",
    "data cleanup",
    "partner launch",
    "hiring plan",
    "support playbook",
    "billing migration",
    "security training",
    "analytics rollout",
)
QUESTIONS = {
    "room": "which room can we use for the {topic} workshop?",
    "budget": "what is the approved budget for the {topic}?",
    "day": "which day in the coming days suits you best for the {topic} review?",
}
REQUESTS = [
    "{r} asked me to {task} (their mail and {key} have the details). Only {ef} knows {fact}, so email {ef}, wait for "
    "the answer, then {act}. Close {key} and let {r} know.",
    "Can you sort out {key} for {r}? It means we {task_we}, but {fact} is something only {e} can tell us. Ask them by "
    "mail, wait for their reply, {act}, then close the ticket and tell {r}.",
    "Please handle {r}'s request in {key}: {task}. You'll need {fact} from {ef} (nobody else knows), so mail them and "
    "wait. Once they answer, {act}, mark {key} done and reply to {r}.",
    "{r} is waiting on me for {key}. Get {fact} from {e} by email (they usually answer within the hour), then {act}. "
    "Afterwards close {key} and confirm to {r}.",
    "I owe {r} an answer on {key}. The missing piece is {fact}; {ef} has it. Email {ef}, wait until they reply, "
    "{act}, and finish by closing {key} and telling {r} what you did.",
    "Forwarding you {r}'s ask ({key}): '{task_quote}'. Don't guess {fact}: ask {ef} by mail and wait for the answer. Then {act}, "
    "close the ticket and let {r} know.",
    "Could you take {key} off my plate? {r} needs us to {task_plain}. Check with {e} for {fact} (by mail, and do wait "
    "for the reply), {act}, then close {key} and update {r}.",
    "For {key}: {fact} has to come from {ef}. Ask them by email, wait for the answer, and only then {act}. Mark the ticket done "
    "and drop {r} a note.",
    "Take care of {r}'s {key}, please. Step one is asking {ef} for {fact} by email; wait for the reply. Then {act}, "
    "close {key} and tell {r}.",
    "{r} wants us to {task_plain} ({key}). I don't know {fact} and neither does {r}; {e} does. Mail them, wait, {act}, "
    "and close out {key} with a note back to {r}.",
    "Need your help with {key} from {r}: {task}. Ask {ef} for {fact} (email is best) and give them time to answer. "
    "When you have it, {act}, resolve {key} and let {r} know.",
    "Re {key}: please email {e} to find out {fact}, wait for the answer, {act}, then set {key} to done and reply to "
    "{r}.",
    "{r} pinged me about {key}. Could you get {fact} from {ef} (ask by mail and wait for it), {act}, and then close "
    "the ticket and tell {r}?",
    "Sort out {key} for me? It's {r}'s request to {task_plain}. {ef} is the only one who knows {fact}: ask by mail, wait for "
    "the answer, {act}. Then close {key} and let {r} know it's done.",
    "Please finish {key}. What's left: find out {fact} from {e} (mail them and wait for the reply), {act}, close the "
    "ticket, and tell {r}.",
    "{r}'s request ({key}) is blocked on {fact}. Ask {ef} by email and wait; when the answer is in, {act}, close {key} "
    "and reply to {r}.",
    "Can you deal with {key}? {r} needs us to {task_plain}. Don't assume {fact}; {ef} will tell you if you ask by mail. "
    "Wait for it, {act}, close the ticket and tell {r}.",
    "Here's one for today: {key} from {r}. Email {ef} for {fact}, wait for the reply, then {act}. Wrap up by closing "
    "{key} and letting {r} know.",
    "I promised {r} we'd {task_plain} ({key}). {e} knows {fact}; ask them by mail, wait for their answer, {act}, and "
    "close {key} with a quick note to {r}.",
    "{key} ({r}) needs {fact}, which only {ef} has. Please mail {ef}, wait for the answer, {act}, then close the "
    "ticket and confirm with {r}.",
    "Could you get {key} done? {r} asked us to {task_plain}. First ask {ef} for {fact} over email and wait for the "
    "reply; then {act}; then close {key} and tell {r}.",
    "Please pick up {key}. {r} wants to {task_plain_they}; we need {fact} from {e} first, so ask by mail and wait. "
    "After that, {act}, close the ticket and let {r} know.",
    "On {key}: ask {ef} (email) for {fact}, wait until they answer, then {act}. Close {key} and tell {r} once it's "
    "sorted.",
    "{r} forwarded me {key}. Can you chase {ef} for {fact} by mail, wait for the reply, {act}, and then close the "
    "ticket and tell {r}?",
    "We can't finish {key} without {fact}, and {e} is the person to ask. Send them a mail, give them a little while "
    "to answer, then {act}. Close {key} and let {r} know how it went.",
    "Could you get {r} sorted ({key})? They need us to {task_plain}. Write to {ef} by email for {fact}, wait for what they "
    "say, {act}, and close the ticket with a note to {r}.",
    "{key} is yours now. {r} wants to {task_plain_they}, and {ef} knows {fact}. Email {ef}, wait for the answer "
    "before doing anything else, {act}, then close {key} and tell {r}.",
]
