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
}
