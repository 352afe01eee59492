"""Outbound email: a mail is queued in the outbox in the transaction of what caused it (`queue_mail`) and
sent afterwards by the dispatcher (`MailSender`) through SMTP, or written to the log when no SMTP server
is configured."""

from app.mail.compose import Mail
from app.mail.outbox import MAIL_JOB, mail_about, queue_mail

__all__ = ["MAIL_JOB", "Mail", "mail_about", "queue_mail"]
