"""Resource namespaces of the clients: client.leads, client.jobs, client.email, client.mobile."""
