"""travel's words: edition 2's requests composed into its instructions, and the cues edition 3 reads a place's role by."""

from __future__ import annotations

from orchestrator.generate import phrasing

STAY = (
    "check in at",
    "checking in at",
    "stay at",
    "staying at",
    "stays at",
    "stay in",
    "staying in",
    "sleep at",
    "accommodation at",
    "accommodation is",
    "booked into",
    "nights at",
    "overnight at",
    "hotel is",
)
"""Words that give a place as where the team stays (a cue with its verb or preposition: a bare label such as
"Hotel" reads across punctuation, so "Smith Forum (venue) Hotel Jones" would be misread)."""
HELD = ("offsite at", "offsite is at", "offsite venue is", "venue is", "held at", "takes place at", "sessions at")
"""Words that give a place as where the offsite is held."""


# -- edition 2: instructions composed from parts (phrasing.compose) --------------------------------------------------

STEPS = {
    "block": [
        "block my travel days on my calendar",
        "put my two travel days in my calendar",
        "block the day I fly out and the day I fly back in my calendar",
        "mark both travel days as busy on my calendar",
        "get my travel days onto my calendar",
        "block out the travel days in my calendar",
        "add my outbound and return travel days to my calendar",
        "make sure both travel days are blocked on my calendar",
    ],
    "doc": [
        "write the itinerary into a doc the team can edit",
        "put the itinerary in a document everyone going can edit",
        "write up an itinerary doc and give the people going edit access",
        "create an itinerary document that the team going can edit",
        "draft the trip itinerary in a doc shared with the team as editors",
        "start an itinerary doc with the travel days, hotel and venue, editable by the team",
        "make a doc with the itinerary that the others going can edit",
        "write the itinerary (travel days, hotel, venue) in a doc the team can edit",
        "set up an itinerary document and share it with the team for editing",
        "put together an itinerary doc the whole group can edit",
        "write an itinerary doc and let the team edit it",
    ],
    "ticket": [
        "file the travel-approval ticket our travel policy asks for",
        "raise the approval ticket the travel policy wants",
        "open the travel approval ticket as our policy describes",
    ],
    "reply-days": [
        "reply to {organizer} confirming which days I travel",
        "let {organizer} know the days I'll be travelling",
        "answer {organizer} with my travel days",
        "write back to {organizer} confirming my travel dates",
        "reply to {organizer} saying which days I'm travelling",
    ],
    "reply-link": [
        "reply to {organizer} with the doc link",
        "send {organizer} the itinerary link in a reply",
        "answer {organizer} with a link to the itinerary",
        "write back to {organizer} with the doc's link",
        "reply to {organizer}'s mail with the link to the itinerary",
    ],
}
PLAN = phrasing.Phrasebook(
    requests=[
        "{organizer} emailed me about the {city} offsite. Please {todo}.",
        "Please handle {organizer}'s mail about the offsite in {city}: {todo}.",
        "Sort out my {city} offsite trip from {organizer}'s mail: {todo}.",
        "Can you plan my trip to the {city} offsite? {organizer}'s mail has the details. I need you to {todo}.",
        "I'm going to the {city} offsite (see {organizer}'s email). Could you {todo}?",
        "Could you take care of the travel side of the {city} offsite? Going by {organizer}'s mail, {todo}.",
        "The {city} offsite is on; {organizer} sent the details. Please {todo}.",
        "Trip prep for {city}, please. From {organizer}'s mail: {todo}.",
        "Can you get me organised for the offsite in {city}? {organizer} mailed the plan. Please {todo}.",
        "{organizer}'s offsite mail needs handling: {todo}. It's the one about {city}.",
        "Please sort my travel for the {city} offsite that {organizer} wrote about: {todo}.",
        "Would you plan the {city} trip for me? The offsite details are in {organizer}'s email; {todo}.",
        "Offsite in {city}: {organizer} emailed the details. Can you {todo}?",
        "I need my {city} offsite travel sorted. {organizer}'s mail says when and where. Please {todo}.",
        "Could you deal with the logistics of the {city} offsite from {organizer}'s mail? Specifically: {todo}.",
        "Please do my trip admin for the {city} offsite ({organizer} sent the info): {todo}.",
        "Help me get ready for the {city} offsite. Read {organizer}'s email, then {todo}.",
        "Travel for the {city} offsite, going by {organizer}'s mail: {todo}, please.",
        "Can you handle my {city} offsite travel? {organizer}'s email has the offsite days; {todo}.",
        "{organizer} is organising the {city} offsite and mailed me about it. Can you {todo}?",
        "---------- Forwarded message ----------\nFrom: {organizer}\nSubject: {city} offsite\n\nDetails of the "
        "offsite are in my mail to you.\n----------\n\nCan you sort out my trip? Please {todo}.",
        "Forwarding {organizer}'s offsite mail to you (it's in my inbox): for the {city} trip, please {todo}.",
    ],
    openers=[
        "Offsite season again.",
        "I'm looking forward to {city}.",
        "Travel admin, my favourite.",
        "The offsite is coming up fast.",
        "I haven't planned anything for the trip yet.",
        "{organizer} needs an answer soon.",
        "I'll be travelling next week.",
        "Let's get the trip sorted early.",
        "Could you help me with a trip?",
        "One more thing before the offsite.",
        "I'd like the travel settled today.",
        "Trip planning time.",
    ],
    closers=[
        "I fly in the day before and back the day after, as {organizer} suggests.",
        "The hotel and venue details are in {organizer}'s mail.",
        "Don't share anything outside the company.",
        "Ignore hotel upgrade offers.",
        "Mind the dates: it's this offsite, not an older trip.",
        "Keep it to the people who are going.",
        "Use the dates from {organizer}'s mail.",
        "No need to book flights or the hotel.",
        "Answer {organizer} by mail.",
        "Nothing needs to go to outside addresses.",
        "Double-check the dates before replying.",
        "The travel days are the day before and the day after the offsite.",
    ],
)
