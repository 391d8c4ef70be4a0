// implemented by its issue part
