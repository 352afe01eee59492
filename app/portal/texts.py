"""What the portal's pages say, in each language they are shown in."""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "ideas": "Ideas", "roadmap": "Roadmap", "changelog": "Changelog", "suggest": "Suggest an idea",
        "top": "Top", "new": "New", "trending": "Trending", "search": "Search", "all": "All",
        "status": "Status", "tag": "Tag", "vote": "Vote", "remove_vote": "Remove vote", "votes": "votes",
        "comments": "Comments", "comment": "Comment", "add_comment": "Add a comment", "send": "Send",
        "title": "Title", "description": "Description", "similar": "Similar ideas",
        "similar_hint": "Maybe your idea is here already: vote for it instead.",
        "send_anyway": "Suggest it anyway", "response": "The team's response", "no_ideas": "No ideas yet.",
        "pending_note": "Waiting for the team's approval: only you and the team see it.",
        "merged_note": "Merged into another idea:", "sign_in_needed": "To vote, suggest or comment, sign in "
        "through the app that sent you here.", "email_sign_in": "Vote with your email",
        "email": "Email", "send_link": "Send me a link", "check_mail": "Check your mail: the link there "
        "signs you in.", "confirm": "Confirm and continue", "signed_in_as": "Signed in as",
        "unsubscribe": "Stop mails about ideas", "unsubscribed": "You will get no more mails about ideas "
        "from this portal.", "older": "Older", "newer": "Newer", "by": "by", "team": "Team",
        "no_entries": "Nothing published yet.", "feed": "Atom feed", "required": "Required.",
        "too_long": "Too long.", "spam_ok": "Thank you!", "ideas_shipped": "Ideas shipped",
        "pending": "Pending", "open": "Open", "planned": "Planned", "in_progress": "In progress",
        "done": "Done", "declined": "Declined", "invalid_link": "This link is not valid (or expired).",
        "not_found": "Not found.",
    },
    "de": {
        "ideas": "Ideen", "roadmap": "Roadmap", "changelog": "Änderungen", "suggest": "Idee vorschlagen",
        "top": "Beliebt", "new": "Neu", "trending": "Im Trend", "search": "Suchen", "all": "Alle",
        "status": "Status", "tag": "Schlagwort", "vote": "Abstimmen", "remove_vote": "Stimme zurückziehen",
        "votes": "Stimmen", "comments": "Kommentare", "comment": "Kommentar",
        "add_comment": "Kommentar schreiben", "send": "Senden", "title": "Titel",
        "description": "Beschreibung", "similar": "Ähnliche Ideen",
        "similar_hint": "Vielleicht gibt es Ihre Idee schon: stimmen Sie lieber dafür ab.",
        "send_anyway": "Trotzdem vorschlagen", "response": "Antwort des Teams",
        "no_ideas": "Noch keine Ideen.",
        "pending_note": "Wartet auf Freigabe durch das Team: nur Sie und das Team sehen sie.",
        "merged_note": "Zusammengeführt mit einer anderen Idee:", "sign_in_needed": "Um abzustimmen, "
        "vorzuschlagen oder zu kommentieren, melden Sie sich über die App an, die Sie hergeführt hat.",
        "email_sign_in": "Mit E-Mail abstimmen", "email": "E-Mail", "send_link": "Link senden",
        "check_mail": "Sehen Sie in Ihr Postfach: der Link dort meldet Sie an.",
        "confirm": "Bestätigen und weiter", "signed_in_as": "Angemeldet als",
        "unsubscribe": "Keine E-Mails zu Ideen mehr", "unsubscribed": "Sie erhalten keine E-Mails zu Ideen "
        "dieses Portals mehr.", "older": "Ältere", "newer": "Neuere", "by": "von", "team": "Team",
        "no_entries": "Noch nichts veröffentlicht.", "feed": "Atom-Feed", "required": "Pflichtfeld.",
        "too_long": "Zu lang.", "spam_ok": "Danke!", "ideas_shipped": "Umgesetzte Ideen",
        "pending": "Ausstehend", "open": "Offen", "planned": "Geplant", "in_progress": "In Arbeit",
        "done": "Umgesetzt", "declined": "Abgelehnt", "invalid_link": "Dieser Link ist ungültig (oder "
        "abgelaufen).", "not_found": "Nicht gefunden.",
    },
    "sv": {
        "ideas": "Idéer", "roadmap": "Färdplan", "changelog": "Ändringslogg", "suggest": "Föreslå en idé",
        "top": "Populära", "new": "Nya", "trending": "Trendande", "search": "Sök", "all": "Alla",
        "status": "Status", "tag": "Tagg", "vote": "Rösta", "remove_vote": "Ta bort röst", "votes": "röster",
        "comments": "Kommentarer", "comment": "Kommentar", "add_comment": "Skriv en kommentar",
        "send": "Skicka", "title": "Titel", "description": "Beskrivning", "similar": "Liknande idéer",
        "similar_hint": "Kanske finns din idé redan: rösta på den i stället.",
        "send_anyway": "Föreslå ändå", "response": "Teamets svar", "no_ideas": "Inga idéer än.",
        "pending_note": "Väntar på teamets godkännande: bara du och teamet ser den.",
        "merged_note": "Sammanslagen med en annan idé:", "sign_in_needed": "För att rösta, föreslå eller "
        "kommentera, logga in via appen som skickade dig hit.", "email_sign_in": "Rösta med din e-post",
        "email": "E-post", "send_link": "Skicka en länk", "check_mail": "Titta i din inkorg: länken där "
        "loggar in dig.", "confirm": "Bekräfta och fortsätt", "signed_in_as": "Inloggad som",
        "unsubscribe": "Sluta få mejl om idéer", "unsubscribed": "Du får inga fler mejl om idéer från den "
        "här portalen.", "older": "Äldre", "newer": "Nyare", "by": "av", "team": "Teamet",
        "no_entries": "Inget publicerat än.", "feed": "Atom-flöde", "required": "Obligatoriskt.",
        "too_long": "För lång.", "spam_ok": "Tack!", "ideas_shipped": "Genomförda idéer",
        "pending": "Väntar", "open": "Öppen", "planned": "Planerad", "in_progress": "Pågår",
        "done": "Klar", "declined": "Avböjd", "invalid_link": "Länken är ogiltig (eller har gått ut).",
        "not_found": "Hittades inte.",
    },
}  # fmt: skip
