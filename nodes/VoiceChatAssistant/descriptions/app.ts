/**
 * The app's description: the action node's, and the webhook trigger's too, because n8n's node panel
 * shows the trigger's events under the action node's app with the trigger's description.
 */
export const APP_DESCRIPTION =
	'Manage AI voice and chat assistants (Famulor): assistants, knowledge, tools, calls, chats, campaigns and leads, SMS and WhatsApp, numbers and SIP trunks; start workflows when calls and chats end';
