"""Churn: what cancelling customers of Stripe and Polar said, and thanking them with a discount."""
