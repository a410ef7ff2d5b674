"""reschedule's edition-2 phrasing: the requests composed into its instructions and the agenda doc's sentence."""

from __future__ import annotations

from orchestrator.generate import phrasing

# -- edition 2: instructions composed from parts (phrasing.compose) --------------------------------------------------

MOVE = phrasing.Phrasebook(
    requests=[
        "{organizer} just put the {clash} on my calendar and it lands on one of my meetings. Move my meeting to a "
        "time {when} when all its guests and I are free, inside everyone's working hours, and keep its length. Then "
        "email the guests the new time.{doc}",
        "Can you sort out the clash {organizer}'s {clash} created? One of my meetings overlaps it now. Find a slot "
        "{when} where every guest and I are free during working hours, move my meeting there at the same length, "
        "and mail the guests the new time.{doc}",
        "The {clash} that {organizer} scheduled sits right on top of one of my meetings. Please reschedule mine "
        "{when} to a time everyone on it can make (working hours only, same duration) and let the guests know by "
        "email.{doc}",
        "Could you move whichever of my meetings collides with {organizer}'s {clash}? It needs to go {when}, to a "
        "slot where all of its guests and I are free within our working hours, keeping the same length. Email the "
        "guests once it's moved.{doc}",
        "My meeting now clashes with the {clash} ({organizer} added it, see their mail). Move the meeting {when} to "
        "whenever everyone invited and I are free in working hours, don't change how long it is, and tell the "
        "guests the new time by mail.{doc}",
        "Please fix my calendar: {organizer}'s {clash} overlaps a meeting of mine. Shift my meeting {when} to the "
        "time all its attendees and I have free inside working hours, same length, then send the attendees an "
        "email with the new time.{doc}",
        "I can't be in two places at once: the {clash} {organizer} booked overlaps one of my meetings. Would you "
        "move my meeting {when} to a time when the whole group, me included, is free during working hours? Keep "
        "the length, and email everyone on it the new time.{doc}",
        "{organizer}'s {clash} wins, so my overlapping meeting has to move. Find the time {when} when the guests and "
        "I are all free within working hours, move it there (same duration) and email the guests the new time.{doc}",
        "Move my meeting that conflicts with the {clash} from {organizer}. New time: {when}, whenever every guest "
        "and I are free in working hours; same length. Then mail the guests.{doc}",
        "Need a reschedule. {organizer} dropped the {clash} onto my calendar over one of my meetings. Put my "
        "meeting {when} at a time that works for all its guests and me (working hours, same length) and email them "
        "the new time.{doc}",
        "There's a conflict on my calendar now that {organizer} has added the {clash}. Please move my own meeting, "
        "not the {clash}, to a slot {when} when all of us on it are free during working hours, at the same length, "
        "and let the guests know the new time by email.{doc}",
        "Is there a time {when} when everyone on my meeting is free? It clashes with the {clash} {organizer} just "
        "set up. If so, move it there (inside everyone's working hours, same duration) and email the guests the "
        "new time.{doc}",
        "Reschedule: my meeting overlapping {organizer}'s {clash}. Move it {when} to a time all its guests and I are "
        "free within working hours, keep the duration, email the guests the new time.{doc}",
        "Would you mind moving one of my meetings? {organizer} put the {clash} right over it. It should go {when}, "
        "at a time every guest and I are free inside working hours, and stay the same length. Please email the "
        "guests the new time afterwards.{doc}",
        "Please handle the knock-on from {organizer}'s {clash}: the meeting of mine it overlaps needs a new slot "
        "{when} where all its guests and I are free during working hours. Same length. Move it and mail the guests "
        "the new time.{doc}",
        "The {clash} can't move, so my meeting has to. {organizer}'s mail has the details. Find a time {when} that "
        "suits every guest and me within working hours, move the meeting there keeping its length, and email the "
        "guests the new time.{doc}",
        "Can you find my meeting a new home {when}? It clashes with the {clash} {organizer} added. It needs a slot "
        "where all its guests and I are free in working hours, the same length as now; move it and email the "
        "guests.{doc}",
        "Heads up, {organizer}'s {clash} overlaps one of my meetings. Please move that meeting {when} to a time "
        "when everyone on the invite and I are free (working hours only), keep the duration, and send the guests "
        "the new time by mail.{doc}",
        "Sort out my calendar clash please: the {clash} from {organizer} vs. one of my meetings. Mine moves {when}, "
        "to the slot all its guests and I have free during working hours, same length. Email the guests the new "
        "time.{doc}",
        "So {organizer} booked the {clash} and it collides with a meeting of mine. Move my meeting {when} to a time "
        "everyone on it and I are free within working hours (keep it the same length), then email the guests to "
        "tell them the new time.{doc}",
        "Please move my meeting that now overlaps the {clash}. Look at {organizer}'s mail for the clash, then pick "
        "the time {when} when all the meeting's guests and I are free during working hours, keep its duration, "
        "and email the guests the new time.{doc}",
        "Can you deal with the overlap between {organizer}'s {clash} and my meeting? Move my meeting {when} to when "
        "every guest and I are free inside working hours, same length, and let the guests know by mail.{doc}",
        "---------- Forwarded message ----------\nFrom: {organizer}\nSubject: {clash}\n\nI've put the {clash} in "
        "your calendar, it can't move.\n----------\n\nThis lands on one of my meetings. Please move my meeting {when} "
        "to a time when all its guests and I are free in working hours, keep its length, and email the guests the "
        "new time.{doc}",
        "Forwarding you {organizer}'s note about the {clash}, which overlaps one of my meetings. Can you move my "
        "meeting {when} to the time all its guests and I are free during working hours (same duration) and mail "
        "the guests the new time?{doc}",
        "My {clash} problem: {organizer} booked it over one of my meetings. Please move that meeting {when} to a "
        "time when all its guests and I are free in working hours, same length, and email the guests about the "
        "new time.{doc}",
        "Please rebook my clashing meeting. The {clash} ({organizer}'s) overlaps it; the meeting should move {when} "
        "to the slot where every guest and I are free within working hours, keeping its duration. Email the "
        "guests the new time.{doc}",
        "Take a look at {organizer}'s mail about the {clash}: it knocks out one of my meetings. Move that meeting "
        "{when} to a time that all its guests and I have free in working hours, at the same length, and let them "
        "know the new time by email.{doc}",
        "Could you shuffle my calendar? The {clash} {organizer} set up overlaps one of my meetings, so move mine "
        "{when} to a slot when its guests and I are all free during working hours. Same length. Then email the "
        "guests the new time.{doc}",
        "Meeting clash: {organizer}'s {clash} vs. mine. Move mine {when}; all guests and I must be free, inside "
        "working hours, same length. Email the guests the new time.{doc}",
        "My meeting and the {clash} {organizer} added overlap. I'd like my meeting moved {when}, to the one time "
        "when all its guests and I are free within working hours, with its length unchanged, and the guests told "
        "the new time by email.{doc}",
    ],
    openers=[
        "My calendar got messy this morning.",
        "Bit of a scheduling problem.",
        "I just saw {organizer}'s mail.",
        "Calendar question for you.",
        "The {clash} has landed, as expected at the worst time.",
        "Something came up on my calendar.",
        "Small calendar emergency.",
        "I'm buried today, so could you take this one?",
        "Looks like I'm double-booked.",
        "Scheduling puzzle for you.",
        "I'd do this myself but I'm in back-to-backs.",
        "{organizer} has been busy with my calendar.",
        "Ugh, another clash.",
        "My week just got rearranged.",
        "This came in overnight.",
        "The {clash} takes priority, unfortunately.",
    ],
    closers=[
        "Leave the {clash} itself where it is.",
        "Don't create a new event, just move the existing one.",
        "Keep the same guests on it.",
        "Only email the people on that meeting.",
        "The {clash} can't move, so don't touch it.",
        "Don't invite anyone new.",
        "Please don't change anything else on my calendar.",
        "Move the meeting itself rather than making a copy.",
        "No need to mail anyone beyond the meeting's guests.",
        "Keep everything else on the invite as it is.",
        "Leave my other meetings alone.",
        "Mention the new time clearly in the mail.",
    ],
)
DOCS = [
    " Also fix the time in the meeting's agenda doc.",
    " Update the agenda doc linked from the meeting as well.",
    " The agenda doc (linked in the invite) should show the new time too.",
    " And correct the time written in the agenda doc.",
    " Please also change the time in the agenda doc so it matches.",
    " Its agenda doc states the old time; change it to the new one.",
    " Don't forget the agenda doc, it still says the old time.",
    " Also make the agenda doc show the new time.",
    " The agenda doc needs the new time too.",
    " Then update the time in the agenda doc.",
]
