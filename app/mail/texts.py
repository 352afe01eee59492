"""What each mail says, in every language mail is written in. `{name}` is replaced by the mail's value
of that name; the templates lay the texts out as plain text and as HTML."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class MailText:
    subject: str
    before: tuple[str, ...]
    """Paragraphs before the link."""
    action: str
    """The label of the link (a button in HTML)."""
    after: tuple[str, ...] = field(default_factory=tuple)


FOOTER = {
    "en": "This mail was sent by Hearken.",
    "de": "Diese E-Mail wurde von Hearken gesendet.",
    "sv": "Det här mejlet skickades av Hearken.",
}

UNSUBSCRIBE = {
    "en": "Stop these mails",
    "de": "Diese E-Mails abbestellen",
    "sv": "Sluta få dessa mejl",
}

TEXTS: dict[str, dict[str, MailText]] = {
    "password_reset": {
        "en": MailText(
            subject="Reset your Hearken password",
            before=("Someone asked to reset the password of the Hearken account {email}.",),
            action="Set a new password",
            after=(
                "The link works once, for 60 minutes.",
                "If it was not you, ignore this mail: your password stays as it is.",
            ),
        ),
        "de": MailText(
            subject="Hearken-Passwort zurücksetzen",
            before=("Jemand möchte das Passwort des Hearken-Kontos {email} zurücksetzen.",),
            action="Neues Passwort festlegen",
            after=(
                "Der Link funktioniert einmal, 60 Minuten lang.",
                "Wenn Sie das nicht waren, ignorieren Sie diese E-Mail: Ihr Passwort bleibt unverändert.",
            ),
        ),
        "sv": MailText(
            subject="Återställ ditt Hearken-lösenord",
            before=("Någon har bett om att återställa lösenordet för Hearken-kontot {email}.",),
            action="Välj ett nytt lösenord",
            after=(
                "Länken fungerar en gång, i 60 minuter.",
                "Om det inte var du kan du bortse från det här mejlet: ditt lösenord ändras inte.",
            ),
        ),
    },
    "invitation": {
        "en": MailText(
            subject="{inviter} invited you to {organization} on Hearken",
            before=("{inviter} invited you to join {organization} on Hearken as {role}.",),
            action="Accept the invitation",
            after=("The link works for 7 days.",),
        ),
        "de": MailText(
            subject="{inviter} hat Sie zu {organization} auf Hearken eingeladen",
            before=("{inviter} hat Sie eingeladen, {organization} auf Hearken beizutreten (Rolle: {role}).",),
            action="Einladung annehmen",
            after=("Der Link funktioniert 7 Tage lang.",),
        ),
        "sv": MailText(
            subject="{inviter} har bjudit in dig till {organization} på Hearken",
            before=("{inviter} har bjudit in dig att gå med i {organization} på Hearken (roll: {role}).",),
            action="Anta inbjudan",
            after=("Länken fungerar i 7 dagar.",),
        ),
    },
    "confirm_email": {
        "en": MailText(
            subject="Confirm your email address for Hearken",
            before=("Please confirm that {email} is the address of your Hearken account.",),
            action="Confirm my address",
            after=("The link works for 7 days. Until then you cannot invite members or create API tokens.",),
        ),
        "de": MailText(
            subject="Bestätigen Sie Ihre E-Mail-Adresse für Hearken",
            before=("Bitte bestätigen Sie, dass {email} die Adresse Ihres Hearken-Kontos ist.",),
            action="Adresse bestätigen",
            after=(
                "Der Link funktioniert 7 Tage lang. Bis dahin können Sie weder Mitglieder einladen "
                "noch API-Tokens erstellen.",
            ),
        ),
        "sv": MailText(
            subject="Bekräfta din e-postadress för Hearken",
            before=("Bekräfta att {email} är adressen till ditt Hearken-konto.",),
            action="Bekräfta min adress",
            after=(
                "Länken fungerar i 7 dagar. Till dess kan du inte bjuda in medlemmar eller skapa API-token.",
            ),
        ),
    },
    "sign_in_changed": {
        "en": MailText(
            subject="How you sign in to Hearken changed",
            before=("A change was made to how the Hearken account {email} signs in: {change}.",),
            action="Review your account",
            after=("If it was not you, change your password now and check your second factors.",),
        ),
        "de": MailText(
            subject="Ihre Anmeldung bei Hearken wurde geändert",
            before=("Die Anmeldung des Hearken-Kontos {email} wurde geändert: {change}.",),
            action="Konto prüfen",
            after=(
                "Wenn Sie das nicht waren, ändern Sie jetzt Ihr Passwort und prüfen Sie Ihre "
                "zweiten Faktoren.",
            ),
        ),
        "sv": MailText(
            subject="Hur du loggar in på Hearken har ändrats",
            before=("Inloggningen för Hearken-kontot {email} har ändrats: {change}.",),
            action="Granska ditt konto",
            after=("Om det inte var du, byt lösenord nu och kontrollera dina andra faktorer.",),
        ),
    },
    "new_feedback": {
        "en": MailText(
            subject="New feedback in {project}",
            before=("New {type} feedback in {project}:",),
            action="Open it in Hearken",
        ),
        "de": MailText(
            subject="Neues Feedback in {project}",
            before=("Neues Feedback ({type}) in {project}:",),
            action="In Hearken öffnen",
        ),
        "sv": MailText(
            subject="Ny feedback i {project}",
            before=("Ny feedback ({type}) i {project}:",),
            action="Öppna i Hearken",
        ),
    },
    "alert_opened": {
        "en": MailText(
            subject="Alert in {project}",
            before=("Something got worse in {project}:",),
            action="See the evidence in Hearken",
        ),
        "de": MailText(
            subject="Warnung in {project}",
            before=("In {project} ist etwas schlechter geworden:",),
            action="Die Belege in Hearken ansehen",
        ),
        "sv": MailText(
            subject="Varning i {project}",
            before=("Något har blivit sämre i {project}:",),
            action="Se underlaget i Hearken",
        ),
    },
    "new_contact": {
        "en": MailText(
            subject="New contact message in {project}",
            before=("{name} <{email}> wrote in {project}:",),
            action="Open it in Hearken",
        ),
        "de": MailText(
            subject="Neue Kontaktnachricht in {project}",
            before=("{name} <{email}> schrieb in {project}:",),
            action="In Hearken öffnen",
        ),
        "sv": MailText(
            subject="Nytt kontaktmeddelande i {project}",
            before=("{name} <{email}> skrev i {project}:",),
            action="Öppna i Hearken",
        ),
    },
    "digest": {
        "en": MailText(
            subject="Hearken: what came in on {day}",
            before=("What came in on {day} (UTC):",),
            action="Open Hearken",
        ),
        "de": MailText(
            subject="Hearken: Was am {day} einging",
            before=("Was am {day} (UTC) einging:",),
            action="Hearken öffnen",
        ),
        "sv": MailText(
            subject="Hearken: det här kom in {day}",
            before=("Det här kom in {day} (UTC):",),
            action="Öppna Hearken",
        ),
    },
    "contact_reply": {
        "en": MailText(
            subject="Re: {subject}",
            before=("{reply}", "On {date}, {name} wrote to {project}:"),
            action="",
        ),
        "de": MailText(
            subject="Re: {subject}",
            before=("{reply}", "Am {date} schrieb {name} an {project}:"),
            action="",
        ),
        "sv": MailText(
            subject="Sv: {subject}",
            before=("{reply}", "Den {date} skrev {name} till {project}:"),
            action="",
        ),
    },
    "conversation_person": {
        "en": MailText(
            subject="New answer from {project}",
            before=("{project} answered you, and the answer is still unread:",),
            action="",
            after=("Open Messages where you use {project} to read the conversation and answer.",),
        ),
        "de": MailText(
            subject="Neue Antwort von {project}",
            before=("{project} hat Ihnen geantwortet, und die Antwort ist noch ungelesen:",),
            action="",
            after=("Öffnen Sie Nachrichten dort, wo Sie {project} nutzen, um zu lesen und zu antworten.",),
        ),
        "sv": MailText(
            subject="Nytt svar från {project}",
            before=("{project} har svarat dig, och svaret är fortfarande oläst:",),
            action="",
            after=("Öppna Meddelanden där du använder {project} för att läsa samtalet och svara.",),
        ),
    },
    "conversation_team": {
        "en": MailText(
            subject="Unread message from {person} in {project}",
            before=("{person} wrote in a conversation of {project}, and nobody has read it yet:",),
            action="Open the conversation",
        ),
        "de": MailText(
            subject="Ungelesene Nachricht von {person} in {project}",
            before=("{person} hat in einer Unterhaltung von {project} geschrieben, noch ungelesen:",),
            action="Unterhaltung öffnen",
        ),
        "sv": MailText(
            subject="Oläst meddelande från {person} i {project}",
            before=("{person} skrev i ett samtal i {project}, och ingen har läst det än:",),
            action="Öppna samtalet",
        ),
    },
    "confirm_reporter": {
        "en": MailText(
            subject="Confirm your address to hear about your feedback",
            before=(
                "This address was given on a feedback form of {project}, asking for one mail when that "
                "feedback is resolved.",
                "If it was you, confirm the address. If not, ignore this mail: nothing more comes to you.",
            ),
            action="Confirm my address",
            after=("The link works for 7 days.",),
        ),
        "de": MailText(
            subject="Bestätigen Sie Ihre Adresse für Nachrichten zu Ihrem Feedback",
            before=(
                "Diese Adresse wurde in einem Feedback-Formular von {project} angegeben, mit der Bitte um "
                "eine E-Mail, wenn das Feedback erledigt ist.",
                "Wenn Sie das waren, bestätigen Sie die Adresse. Wenn nicht, ignorieren Sie diese E-Mail: "
                "Sie erhalten nichts weiter.",
            ),
            action="Adresse bestätigen",
            after=("Der Link funktioniert 7 Tage lang.",),
        ),
        "sv": MailText(
            subject="Bekräfta din adress för att höra om din feedback",
            before=(
                "Den här adressen angavs i ett feedbackformulär för {project}, med en begäran om ett mejl "
                "när feedbacken är löst.",
                "Om det var du, bekräfta adressen. Om inte, bortse från det här mejlet: inget mer skickas "
                "till dig.",
            ),
            action="Bekräfta min adress",
            after=("Länken fungerar i 7 dagar.",),
        ),
    },
    "feedback_resolved": {
        "en": MailText(
            subject="Resolved: your feedback to {project}",
            before=("The feedback you sent to {project} on {date} is resolved.", "{note}"),
            action="",
            after=("You asked to be told once; this is the only mail about it.",),
        ),
        "de": MailText(
            subject="Erledigt: Ihr Feedback an {project}",
            before=(
                "Das Feedback, das Sie am {date} an {project} gesendet haben, ist erledigt.",
                "{note}",
            ),
            action="",
            after=("Sie wollten einmal benachrichtigt werden; dies ist die einzige E-Mail dazu.",),
        ),
        "sv": MailText(
            subject="Löst: din feedback till {project}",
            before=("Feedbacken du skickade till {project} den {date} är löst.", "{note}"),
            action="",
            after=("Du bad om att få veta det en gång; det här är det enda mejlet om den.",),
        ),
    },
}

SIGN_IN_CHANGES: dict[str, dict[str, str]] = {
    "authenticator_on": {
        "en": "an authenticator app was set up",
        "de": "eine Authenticator-App wurde eingerichtet",
        "sv": "en autentiseringsapp har konfigurerats",
    },
    "authenticator_off": {
        "en": "the authenticator app was turned off",
        "de": "die Authenticator-App wurde ausgeschaltet",
        "sv": "autentiseringsappen har stängts av",
    },
    "recovery_codes": {
        "en": "new recovery codes were made (the earlier ones no longer work)",
        "de": "neue Wiederherstellungscodes wurden erstellt (die früheren gelten nicht mehr)",
        "sv": "nya återställningskoder har skapats (de tidigare fungerar inte längre)",
    },
    "recovery_code_used": {
        "en": "a recovery code was used to sign in",
        "de": "ein Wiederherstellungscode wurde zur Anmeldung verwendet",
        "sv": "en återställningskod användes för att logga in",
    },
    "passkey_added": {
        "en": "a passkey was added",
        "de": "ein Passkey wurde hinzugefügt",
        "sv": "en nyckel (passkey) har lagts till",
    },
    "passkey_removed": {
        "en": "a passkey was removed",
        "de": "ein Passkey wurde entfernt",
        "sv": "en nyckel (passkey) har tagits bort",
    },
}
"""What `{change}` says in the mail confirming a change of how an account signs in."""
