"""Errors the HTTP API answers as ``{"error": message}`` with their status code."""

from __future__ import annotations


class ApiError(Exception):
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadRequest(ApiError):
    status = 400


class Unauthorized(ApiError):
    status = 401


class Forbidden(ApiError):
    status = 403


class NotFound(ApiError):
    status = 404


class Busy(ApiError):
    """409: the table is full or closed, the player sits elsewhere, or the table is run by another
    live process (the message names its address)."""

    status = 409


class Elsewhere(Busy):
    def __init__(self, table: int, address: str) -> None:
        super().__init__(f"table {table} is served by {address}")
        self.address = address
