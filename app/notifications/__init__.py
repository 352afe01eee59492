"""Telling members about new feedback and contact messages by mail: each member's choice per project
(`choices`), the outbox job queued with each new item (`events`), the mails it becomes (`sender`), the
daily digest (`digest`) and the one-click unsubscribe links every such mail carries (`unsubscribe`)."""
