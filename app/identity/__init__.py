"""Who a person of a customer's app is, as that app vouches with the project's identity secret."""
