"""Feedback imported from other platforms: Stripe cancellation feedback (signed webhooks) and Mintlify
page feedback (API import). Imported items are ordinary feedback, created through the feedback service."""
