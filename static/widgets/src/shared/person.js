/** The context of a feedback item or contact message: a token (setUserToken) names the person instead of
 * setUser's id and signature. Only the feedback and contact widgets send one. */
export const signed = (w) => ({ ...w.context(), ...(w.token && { submitted_by: undefined, user_signature: undefined, user_token: w.token }) });
