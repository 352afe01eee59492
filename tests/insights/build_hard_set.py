"""Writes hard_feedback.jsonl: the harder labelled set, written by hand for this project.

Twelve themes a SaaS product hears about, plus noise; duplicate groups (`dup`) are paraphrases as different
people would write them (other words, register, length, typos, slang, mixed languages), most of them across
English, German and Swedish. Each group and each single message goes to one half, `split`: "tune" (for
choosing thresholds) or "held" (for reporting); a group never spans the halves.

Run after editing the lists: .venv/bin/python -m tests.insights.build_hard_set
"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).with_name("hard_feedback.jsonl")

# theme -> (duplicate groups: lists of (language, text)), singles: list of (language, text))
THEMES: dict[str, tuple[list[list[tuple[str, str]]], list[tuple[str, str]]]] = {
    "login": (
        [
            [
                ("en", "SSO with Okta just bounces me back to the login screen, over and over"),
                ("de", "Single Sign-On über Okta landet immer wieder auf der Anmeldeseite, Endlosschleife"),
                ("sv", "när jag loggar in via okta hamnar jag bara på inloggningssidan igen hela tiden"),
            ],
            [
                ("en", "never got the password reset mail. tried 4 times"),
                ("sv", "Mejlet för att återställa lösenordet kommer aldrig fram, inte ens i skräpposten"),
            ],
            [
                ("de", "2FA Code wird jedes Mal als ungültig abgelehnt obwohl er frisch aus der App kommt"),
                ("en", "my authenticator codes are always rejected as invalid, clock is fine on my phone"),
            ],
            [
                ("sv", "kontot låstes efter två felaktiga försök, alldeles för strikt"),
                ("en", "Got locked out after typing my password wrong twice?? thats harsh"),
                ("de", "Nach zwei Tippfehlern beim Passwort ist mein Konto gesperrt, echt übertrieben"),
            ],
        ],
        [
            ("en", "Login with Google spins forever"),
            ("en", "cant sign in on firefox, works in chrome tho"),
            ("de", "Ich werde ständig ausgeloggt, alle paar Minuten muss ich mich neu anmelden"),
            ("sv", "Azure AD-inloggningen ger felkod AADSTS50011 för alla våra användare"),
            ("en", "Session expires way too fast, logged out mid-sentence while writing a reply"),
            ("de", "SAML Login für unser Team klappt seit dem Update nicht mehr"),
            ("sv", "går inte att logga in alls sedan i morse"),
            ("en", "the magic link in the sign-in email is already expired when I click it"),
            ("de", "Anmeldung mit Microsoft Konto bricht mit Fehler ab"),
            ("sv", "Varför måste jag logga in på nytt varje gång jag öppnar fliken?"),
            ("en", "Invited a colleague but the invite link says 'invalid token' when she tries to join"),
            ("de", "passwort vergessen funktion geht nicht, keine mail"),
        ],
    ),
    "billing": (
        [
            [
                ("en", "You charged my card twice for March, please refund one of them"),
                ("de", "Mir wurde der März doppelt abgebucht, bitte eine Zahlung zurückerstatten"),
                ("sv", "ni har dragit pengar två gånger för mars?? vill ha tillbaka"),
            ],
            [
                (
                    "sv",
                    "Fakturan saknar vårt momsregistreringsnummer, vår ekonomiavdelning kan inte bokföra den",
                ),
                ("en", "invoice doesnt show our VAT ID so accounting rejects it"),
            ],
            [
                ("de", "Kann die Rechnungsadresse nirgends ändern, steht noch die alte Firma drauf"),
                (
                    "en",
                    "where do I update the billing address? invoices still go out with our old company name",
                ),
            ],
            [
                ("en", "Cancelled last month but still got billed this month. Not cool."),
                ("sv", "Jag sa upp abonnemanget men ni fortsätter att debitera mig"),
                ("de", "Abo gekündigt und trotzdem wieder Geld abgebucht, was soll das"),
            ],
        ],
        [
            ("en", "Credit card payment fails with 'card declined' but the card works everywhere else"),
            ("de", "Zahlung per SEPA Lastschrift nicht möglich?"),
            ("sv", "kan man betala med faktura istället för kort?"),
            ("en", "Need invoices as PDF for our records, the billing page only shows a list"),
            ("de", "Die Rechnung kommt in Dollar, wir brauchen Euro"),
            ("sv", "Beloppet på kvittot stämmer inte med det som drogs från kontot"),
            ("en", "the upgrade charged the full price instead of the prorated amount"),
            ("de", "Bitte die Rechnungen an buchhaltung@ schicken und nicht an mich"),
            ("en", "Payment page throws an error when I enter my card on Safari"),
            ("sv", "Hur får jag ut gamla fakturor från förra året?"),
            ("de", "Wir wurden nach dem Downgrade weiter zum alten Preis belastet"),
            ("en", "refund still not here after 3 weeks"),
        ],
    ),
    "slow": (
        [
            [
                ("en", "The dashboard takes like 15 seconds to load every single morning"),
                ("sv", "Startsidan tar evigheter att ladda, säkert femton sekunder varje gång"),
                ("de", "Das Dashboard braucht ewig zum Laden, gefühlt eine Viertelminute"),
            ],
            [
                ("de", "Seit dem letzten Update ist alles total träge"),
                ("en", "everything got sluggish after your last release"),
            ],
            [
                ("sv", "rapporterna laddar så segt att jag hinner hämta kaffe"),
                ("en", "Reports page is painfully slow, I can go make coffee while it loads"),
            ],
            [
                ("en", "Typing in the editor lags a second behind my keystrokes"),
                ("de", "Im Editor hängt die Eingabe hinterher, jeder Buchstabe kommt verzögert"),
            ],
        ],
        [
            ("en", "pages load slowww"),
            ("sv", "Appen är väldigt långsam på eftermiddagarna"),
            ("de", "Die Seite lädt extrem langsam, besonders die Übersicht"),
            ("en", "Opening a project with 5k items freezes the browser tab"),
            ("sv", "Sökresultaten är okej men allt annat laggar"),
            ("en", "Timeouts when loading the analytics tab, 504 gateway timeout"),
            ("de", "Ladezeiten sind unzumutbar geworden"),
            ("sv", "det tar 20 sek att öppna inställningarna, seriöst"),
            ("en", "Performance has really degraded over the last weeks"),
            ("de", "Warum dauert das Speichern so lange? Der Spinner dreht sich minutenlang"),
            ("en", "The whole app feels heavy and slow compared to a year ago"),
            ("sv", "sidorna hänger sig ofta innan de laddat klart"),
        ],
    ),
    "mobile": (
        [
            [
                ("en", "On my iPhone the menu button is hidden behind the notch"),
                ("de", "Auf dem iPhone verschwindet der Menüknopf hinter der Notch"),
                ("sv", "menyknappen syns inte på iphone, den hamnar under kameran"),
            ],
            [
                ("sv", "Tabellerna går utanför skärmen på mobilen och man kan inte scrolla i sidled"),
                ("en", "tables overflow on my phone and i can't scroll sideways"),
            ],
            [
                ("de", "Auf dem Handy überlappen sich die Buttons, man trifft immer den falschen"),
                ("en", "Buttons overlap on mobile so I keep tapping the wrong one"),
            ],
            [
                ("en", "the text is tiny on android, have to pinch zoom to read anything"),
                ("sv", "Texten är pyttesmå på min Android-telefon"),
            ],
        ],
        [
            ("en", "Mobile layout is broken, half the form is cut off"),
            ("de", "Die mobile Ansicht ist komplett kaputt"),
            ("sv", "Går inte att använda på mobilen, allt är hoptryckt"),
            ("en", "On iPad in landscape the sidebar covers the content"),
            ("de", "Im Querformat auf dem Tablet ist die Seitenleiste über dem Inhalt"),
            ("en", "keyboard covers the input field on my phone when replying"),
            ("sv", "Popupen går inte att stänga på mobilen, krysset är utanför skärmen"),
            ("de", "Responsive Design? Auf meinem Samsung sieht alles verschoben aus"),
            ("en", "Please make the site work properly on small screens"),
            ("sv", "knapparna är för små för att träffa med tummen"),
            ("de", "Auf dem Smartphone muss man ständig hin und her wischen"),
            ("en", "the chart doesn't fit on a phone screen at all"),
        ],
    ),
    "darkmode": (
        [
            [
                ("en", "Please add a dark mode, my eyes hurt at night"),
                ("de", "Bitte einen Dunkelmodus einbauen, abends blendet das total"),
                ("sv", "snälla lägg till mörkt läge, det bränner i ögonen på kvällen"),
            ],
            [
                ("sv", "Följ gärna systemets mörka tema automatiskt"),
                ("en", "would be great if it followed my OS dark theme setting"),
            ],
            [
                ("de", "Dark Mode wäre echt nice!!"),
                ("en", "dark theme pls 🙏"),
            ],
            [
                ("en", "The white background is blinding when I work late"),
                ("sv", "Den vita bakgrunden är alldeles för skarp när man jobbar sent"),
            ],
        ],
        [
            ("en", "Any plans for a night mode?"),
            ("de", "Gibt es einen Nachtmodus? Finde keinen"),
            ("sv", "Mörkt tema skulle vara toppen"),
            ("en", "A darker color scheme option would be much easier on the eyes"),
            ("de", "Bitte dunkles Design anbieten, alle anderen Tools haben das"),
            ("en", "dark mode is the only thing missing for me"),
            ("sv", "Saknar verkligen dark mode"),
            ("de", "Das helle Design ist anstrengend für die Augen"),
            ("en", "Can I switch the UI to black? Too bright"),
            ("sv", "Kan ni göra ett mörkt färgschema?"),
            ("de", "Wann kommt endlich der Dark Mode?"),
            ("en", "need a dark theme for late shifts"),
        ],
    ),
    "export": (
        [
            [
                ("en", "I need to export all our feedback to CSV for a quarterly report"),
                ("de", "Wir brauchen einen CSV-Export aller Einträge für den Quartalsbericht"),
                ("sv", "vill kunna exportera allt till csv för kvartalsrapporten"),
            ],
            [
                ("de", "Umlaute sind im Export kaputt, Excel zeigt nur komische Zeichen"),
                ("en", "exported csv has garbled characters in excel, ä and ö come out as junk"),
                ("sv", "å ä ö blir konstiga tecken när jag öppnar exporten i Excel"),
            ],
            [
                ("sv", "Exporten tar bara med de första 1000 raderna"),
                ("en", "Export stops at 1000 rows, the rest is missing"),
            ],
            [
                ("en", "can you add an xlsx download next to the csv one"),
                ("de", "Bitte auch Export als Excel Datei (xlsx) anbieten"),
            ],
        ],
        [
            ("en", "Export button does nothing"),
            ("de", "Der Download der Exportdatei bricht ab"),
            ("sv", "Kan man schemalägga en export varje vecka?"),
            ("en", "Dates in the CSV export are in a weird US format"),
            ("de", "Beim Export fehlen die Tags und Kommentare"),
            ("en", "I'd like to export only the filtered items, not everything"),
            ("sv", "exportfilen är tom när jag laddar ner den"),
            ("de", "JSON Export wäre super für unsere Auswertung"),
            ("en", "The export file uses semicolons instead of commas"),
            ("sv", "Det går inte att ladda ner data som kalkylark"),
            ("de", "Exportieren dauert ewig und dann kommt nur eine leere Datei"),
            ("en", "Need a way to get my data out, spreadsheet format"),
        ],
    ),
    "search": (
        [
            [
                ("en", "Search never finds anything when I misspell a word even slightly"),
                ("de", "Die Suche findet nichts, sobald man sich einmal vertippt"),
                ("sv", "sökningen hittar ingenting om man stavar lite fel"),
            ],
            [
                ("sv", "Sökresultaten är i helt fel ordning, det viktigaste hamnar längst ner"),
                ("en", "search results are ranked badly, the obvious match is on page 3"),
            ],
            [
                ("de", "Suche nach exakter Phrase mit Anführungszeichen geht nicht"),
                ("en", "no way to search an exact phrase with quotes??"),
            ],
            [
                ("en", "Searching for 'invoice' doesn't find 'invoices'"),
                ("sv", "Söker jag på faktura hittar den inte fakturor"),
            ],
        ],
        [
            ("en", "search is useless"),
            ("de", "Die Suchfunktion liefert nur irrelevante Treffer"),
            ("sv", "Kan man filtrera sökningen på datum?"),
            ("en", "I can't search inside attachments"),
            ("de", "Suchergebnisse ignorieren Umlaute, 'Grosse' findet 'Größe' nicht"),
            ("en", "Search bar only looks at titles, not the message body"),
            ("sv", "sökfunktionen är värdelös, hittar aldrig det jag letar efter"),
            ("de", "Man kann nicht nach Autor suchen"),
            ("en", "Would love search suggestions as I type"),
            ("sv", "Sökningen tar inte hänsyn till taggar"),
            ("de", "Warum findet die Suche alte Einträge nicht mehr?"),
            ("en", "results from search are all irrelevant, it matches random words"),
        ],
    ),
    "notifications": (
        [
            [
                ("en", "I get way too many emails from you, like 30 a day"),
                ("de", "Ich bekomme viel zu viele E-Mails von euch, dreißig am Tag"),
                ("sv", "ni spammar min inkorg, typ 30 mejl om dagen"),
            ],
            [
                ("sv", "Det finns ingen länk för att avsluta prenumerationen på notiserna"),
                ("en", "there's no unsubscribe link in the notification emails"),
            ],
            [
                ("de", "Bitte eine tägliche Zusammenfassung statt einer Mail pro Kommentar"),
                ("en", "Could you send one daily digest instead of an email for every comment"),
            ],
            [
                ("en", "push notifications keep coming even though I turned them off"),
                ("sv", "Jag får fortfarande pushnotiser fast jag har stängt av dem"),
                ("de", "Trotz deaktivierter Benachrichtigungen kommen weiter Push-Nachrichten"),
            ],
        ],
        [
            ("en", "Notification spam is out of control"),
            ("de", "Benachrichtigungen kommen doppelt"),
            ("sv", "Kan jag välja vilka händelser som skickar mejl?"),
            ("en", "I don't get any email when someone mentions me"),
            ("de", "Eure Mails landen bei uns immer im Spam Ordner"),
            ("en", "stop emailing me every time someone edits a ticket"),
            ("sv", "Notiserna kommer mitt i natten, kan man ställa in tysta timmar?"),
            ("de", "Zu viele Benachrichtigungen, ich ignoriere sie inzwischen alle"),
            ("en", "The bell icon shows 99+ and I can't mark them all read"),
            ("sv", "för många notiser, jag stänger av allt nu"),
            ("de", "Wie kann ich die E-Mail Benachrichtigungen abbestellen?"),
            ("en", "Slack alerts and emails both fire for the same thing, pick one"),
        ],
    ),
    "docs": (
        [
            [
                ("en", "The API docs don't explain how to authenticate at all"),
                ("de", "In der API-Doku steht nirgends, wie man sich authentifiziert"),
                ("sv", "API-dokumentationen förklarar inte hur man autentiserar sig"),
            ],
            [
                ("sv", "Exemplen i dokumentationen fungerar inte längre, de är inaktuella"),
                ("en", "code samples in the docs are outdated and throw errors"),
            ],
            [
                ("de", "Die Anleitung zur Installation ist total verwirrend"),
                ("en", "setup guide is super confusing, skipped steps everywhere"),
            ],
            [
                ("en", "docs are only in english, please translate them"),
                ("sv", "Finns dokumentationen på svenska?"),
                ("de", "Gibt es die Dokumentation auch auf Deutsch?"),
            ],
        ],
        [
            ("en", "Your documentation is a mess"),
            ("de", "Die Doku zu Webhooks ist lückenhaft"),
            ("sv", "Svårt att hitta något i hjälpartiklarna"),
            ("en", "The help center article on roles contradicts the UI"),
            ("de", "Es fehlt ein Beispiel für die Einbindung in React"),
            ("en", "What does the 'scope' field mean? docs don't say"),
            ("sv", "Manualen beskriver en gammal version av gränssnittet"),
            ("de", "Die Fehlermeldungen sind nirgends dokumentiert"),
            ("en", "I'd like a getting started tutorial with screenshots"),
            ("sv", "dokumentationen är rörig och svår att följa"),
            ("de", "Links in der Doku führen auf 404 Seiten"),
            ("en", "the changelog doesn't say what actually changed"),
        ],
    ),
    "dataloss": (
        [
            [
                ("en", "All my notes from yesterday are gone after syncing"),
                ("de", "Nach der Synchronisierung sind meine Notizen von gestern weg"),
                ("sv", "alla mina anteckningar från igår försvann när det synkades"),
            ],
            [
                ("sv", "Ändringar jag gör på telefonen syns inte på datorn"),
                ("en", "edits from my phone never show up on the desktop"),
            ],
            [
                ("de", "Das Formular hat meine Eingaben beim Speichern einfach verschluckt"),
                ("en", "lost a whole long form I filled out, hit save and it was empty"),
                ("sv", "Jag tryckte på spara och allt jag skrivit var borta"),
            ],
            [
                ("en", "Two people editing at once overwrite each other's changes"),
                ("de", "Wenn zwei gleichzeitig bearbeiten, überschreibt einer die Änderungen des anderen"),
            ],
        ],
        [
            ("en", "Data disappeared!!! where is my project"),
            ("de", "Synchronisation hängt seit gestern"),
            ("sv", "Synken fungerar inte, samma gamla data överallt"),
            ("en", "Offline changes were thrown away when I got back online"),
            ("de", "Ein ganzer Ordner mit Einträgen ist verschwunden"),
            ("en", "the app restored an old version and my recent work is lost"),
            ("sv", "mina filer har försvunnit efter uppdateringen"),
            ("de", "Gelöschte Einträge tauchen nach dem Sync wieder auf"),
            ("en", "sync conflict dialog deleted both versions"),
            ("sv", "Data från förra veckan saknas helt"),
            ("de", "Meine Änderungen werden nicht gespeichert"),
            ("en", "Is there a backup? I lost a month of entries"),
        ],
    ),
    "pricing": (
        [
            [
                ("en", "The Pro plan is way too expensive for a small team like ours"),
                ("de", "Der Pro-Tarif ist für ein kleines Team wie unseres viel zu teuer"),
                ("sv", "proplanen är alldeles för dyr för ett litet team"),
            ],
            [
                ("sv", "Varför kostar det extra per användare? Vi är ideella"),
                ("en", "Do you have a discount for nonprofits? per-seat pricing kills us"),
            ],
            [
                ("de", "Die Preiserhöhung um 40 % ist eine Frechheit"),
                ("en", "a 40% price hike with no warning, seriously?"),
                ("sv", "Ni höjde priset med 40 procent utan förvarning"),
            ],
            [
                ("en", "please offer a cheaper plan between free and pro"),
                ("de", "Zwischen Free und Pro fehlt ein günstigerer Tarif"),
            ],
        ],
        [
            ("en", "Pricing is confusing, I don't know which plan I need"),
            ("de", "Gibt es Rabatt bei jährlicher Zahlung?"),
            ("sv", "För dyrt jämfört med konkurrenterna"),
            ("en", "Why is SSO only in the enterprise tier? feels like a ripoff"),
            ("de", "Studentenrabatt wäre toll"),
            ("en", "the free plan limits are too tight to really try the product"),
            ("sv", "Prismodellen är svår att förstå"),
            ("de", "Zu teuer für das, was man bekommt"),
            ("en", "Would pay if it were half the price honestly"),
            ("sv", "Finns det rabatt för startups?"),
            ("de", "Die Preise auf der Webseite sind unklar, netto oder brutto?"),
            ("en", "cost per seat adds up fast once the whole company joins"),
        ],
    ),
    "integrations": (
        [
            [
                ("en", "Please integrate with Jira so we can turn feedback into tickets"),
                ("de", "Bitte eine Jira-Integration, damit wir Feedback als Tickets anlegen können"),
                ("sv", "skulle vara grymt med jira-koppling så feedback blir ärenden direkt"),
            ],
            [
                ("sv", "Slack-integrationen slutade skicka meddelanden i förrgår"),
                ("en", "slack integration stopped posting to our channel two days ago"),
            ],
            [
                ("de", "Zapier Verbindung bricht mit Fehler 401 ab"),
                ("en", "Zapier zap fails with a 401 unauthorized every run"),
            ],
            [
                ("en", "Any chance of a HubSpot sync for contacts?"),
                ("sv", "Kan ni synka kontakter med HubSpot?"),
                ("de", "Eine HubSpot-Anbindung für Kontakte wäre wichtig für uns"),
            ],
        ],
        [
            ("en", "Need a Linear integration"),
            ("de", "Microsoft Teams Integration fehlt"),
            ("sv", "Webhooken till vårt system skickas aldrig"),
            ("en", "GitHub issues integration would save us so much copy paste"),
            ("de", "Salesforce Anbindung geplant?"),
            ("en", "the Intercom integration duplicates every conversation"),
            ("sv", "Går det att koppla ihop med Trello?"),
            ("de", "Die Google Sheets Integration aktualisiert nicht mehr"),
            ("en", "please add a Zendesk connector"),
            ("sv", "Teams-integrationen saknas fortfarande"),
            ("de", "Webhook-Aufrufe an unser CRM schlagen fehl"),
            ("en", "connecting to Notion would be amazing"),
        ],
    ),
}

NOISE: list[tuple[str, str]] = [
    ("en", "asdf"),
    ("en", "great!"),
    ("en", "test test"),
    ("de", "Super"),
    ("sv", "Bra"),
    ("en", "ok"),
    ("en", "lol"),
    ("de", "Hallo?"),
    ("sv", "hej"),
    ("en", "Thanks for the quick reply yesterday, Anna was very helpful"),
    ("de", "Schönes Wochenende euch allen!"),
    ("sv", "Tack för en bra produkt"),
    ("en", "What's the weather like in Berlin?"),
    ("en", "my cat walked over the keyboard"),
    ("de", "Wer hat eigentlich das Logo gestaltet? Sieht schick aus"),
    ("sv", "Glad midsommar!"),
    ("en", "love it"),
    ("en", "..."),
    ("de", "kein Kommentar"),
    ("sv", "vet inte"),
    ("en", "Is this thing on?"),
    ("en", "I'm just here to look around"),
    ("de", "Test bitte ignorieren"),
    ("sv", "hallå hallå"),
    ("en", "The new logo is nice"),
    ("en", "How do I become a partner and resell this?"),
    ("de", "Mein Chef hat mich gebeten, das hier auszufüllen"),
    ("sv", "fungerar bra för oss hittills"),
    ("en", "qwerty"),
    ("en", "nothing to report"),
    ("de", "Gute Arbeit, weiter so"),
    ("sv", "Jag gillar färgerna"),
    ("en", "Are you hiring?"),
    ("en", "👍"),
    ("de", "Was ist eure Postadresse?"),
    ("sv", "jag skriver bara för att testa"),
    ("en", "I met your team at the conference, nice people"),
    ("en", "n/a"),
    ("de", "Frohe Weihnachten!"),
    ("sv", "Kaffet på kontoret är slut"),
    ("en", "best tool ever"),
    ("de", "xyz"),
    ("sv", "ingen kommentar"),
    ("en", "Can I get a t-shirt?"),
    ("en", "hmm"),
    ("de", "Wo sitzt eure Firma?"),
    ("sv", "Trevlig helg"),
    ("en", "just testing the widget"),
    ("en", "The onboarding call was nice"),
    ("de", "Danke!"),
    ("sv", "toppen"),
    ("en", "no feedback right now"),
    ("de", "Ich finde die Schriftart hübsch"),
    ("sv", "Var ligger ert kontor?"),
]


def rows() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for theme, (groups, singles) in THEMES.items():
        for number, group in enumerate(groups):
            split = "tune" if number % 2 == 0 else "held"
            for language, text in group:
                out.append(
                    {
                        "theme": theme,
                        "lang": language,
                        "dup": f"{theme}-{number}",
                        "split": split,
                        "text": text,
                    }
                )
        for number, (language, text) in enumerate(singles):
            split = "held" if number % 2 == 0 else "tune"
            out.append({"theme": theme, "lang": language, "dup": None, "split": split, "text": text})
    for number, (language, text) in enumerate(NOISE):
        split = "tune" if number % 2 == 0 else "held"
        out.append({"theme": None, "lang": language, "dup": None, "split": split, "text": text})
    return out


def main() -> None:
    written = rows()
    OUT.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in written), encoding="utf-8")
    print(f"wrote {len(written)} messages to {OUT}")


if __name__ == "__main__":
    main()
