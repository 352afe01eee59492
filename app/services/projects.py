"""Projects of one organization. This is the only way the code reaches a project, so every
project-scoped service starts from a project that this class found in the scope's organization."""

from __future__ import annotations

from uuid import UUID

from msgspec import UNSET, UnsetType
from sqlalchemy import exists, false, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.identity_secret import new_identity_secret
from app.db.ids import parse_uuid
from app.db.models import FeedbackCounter, FeedbackEmbedding, Project, ProjectInsight
from app.db.row_locks import lock_in_id_order
from app.db.secret_box import SecretBox
from app.errors import Forbidden, InvalidRequest, NotFound
from app.ingest import normalize_origins
from app.notifications.events import forget_news_of_project
from app.schemas.fields import NOT_ONE_LINE, is_one_line
from tenants.permissions import require
from tenants.scope import Access, OrgScope, OrgScoped


def check_name(name: str) -> str:
    """One line (it becomes part of mail subjects), 1 to 200 characters once trimmed."""
    if not is_one_line(name):
        raise InvalidRequest("name", NOT_ONE_LINE)
    name = name.strip()
    if not name or len(name) > 200:
        raise InvalidRequest("name", "must be 1 to 200 characters")
    return name


RETENTION_DAYS = (30, 3650)
"""The shortest and longest time a project may keep its data for, in days."""


def check_retention_days(days: int | None) -> int | None:
    """None keeps data forever; otherwise whole days from 30 to 3650."""
    low, high = RETENTION_DAYS
    if days is not None and (isinstance(days, bool) or not low <= days <= high):
        raise InvalidRequest(
            "retention_days", f"must be a whole number of days from {low} to {high}, or null"
        )
    return days


def check_description(description: str) -> str:
    if len(description) > 2000:
        raise InvalidRequest("description", "must be at most 2000 characters")
    return description.strip()


class Projects(OrgScoped):
    async def list(self) -> list[Project]:
        result = await self.session.scalars(
            select(Project)
            .where(Project.org_id == self.scope.org_id)
            .order_by(Project.created_at, Project.id)
        )
        return list(result)

    async def get(self, ref: str) -> Project:
        """The project whose id or key is `ref`, looked up in the scope's organization: 404 when there is
        none anywhere, 403 when it is another organization's."""
        ident = parse_uuid(ref, "project_id")
        named = or_(Project.id == ident, Project.key == ident)
        project = await self.session.scalar(select(Project).where(Project.org_id == self.scope.org_id, named))
        if project is not None:
            return project
        if await self.session.scalar(select(exists().where(named))):
            raise Forbidden("this project belongs to another organization")
        raise NotFound("no project with this id or key")

    async def feedback_counts(self, projects: list[Project]) -> dict[UUID, int]:
        """Non-archived feedback items per project, from the counters."""
        if not projects:
            return {}
        rows = await self.session.execute(
            select(FeedbackCounter.project_id, func.sum(FeedbackCounter.count))
            .where(
                FeedbackCounter.project_id.in_([p.id for p in projects]), FeedbackCounter.archived == false()
            )
            .group_by(FeedbackCounter.project_id)
        )
        counts: dict[UUID, int] = {project_id: int(count) for project_id, count in rows.tuples()}
        return {p.id: counts.get(p.id, 0) for p in projects}

    async def create(
        self, *, name: str, description: str = "", allowed_origins: list[str] | None = None
    ) -> Project:
        require(self.scope, Access.ADMIN)
        project = Project(
            org_id=self.scope.org_id,
            name=check_name(name),
            description=check_description(description),
            allowed_origins=normalize_origins(allowed_origins or []),
        )
        self.session.add(project)
        await self.session.flush()
        return project

    async def update(
        self,
        project: Project,
        *,
        name: str | None = None,
        description: str | None = None,
        allowed_origins: list[str] | None = None,
        retention_days: int | UnsetType | None = UNSET,
        require_verified_users: bool | None = None,
    ) -> Project:
        """Every field is checked before any is changed, so a refused update leaves the project as it was;
        `retention_days=None` keeps data forever."""
        require(self.scope, Access.ADMIN)
        self._require_own(project)
        changes = {
            "name": None if name is None else check_name(name),
            "description": None if description is None else check_description(description),
            "allowed_origins": None if allowed_origins is None else normalize_origins(allowed_origins),
            "require_verified_users": require_verified_users,
        }
        kept = retention_days if retention_days is UNSET else check_retention_days(retention_days)  # type: ignore[arg-type]
        for field, value in changes.items():
            if value is not None:
                setattr(project, field, value)
        if kept is not UNSET:
            project.retention_days = kept  # type: ignore[assignment]
        await self.session.flush()
        return project

    async def rotate_identity_secret(self, project: Project, box: SecretBox) -> str:
        """A new identity secret, stored sealed in place of the old one (whose signatures stop matching at
        once): the only time it is shown."""
        require(self.scope, Access.ADMIN)
        self._require_own(project)
        secret = new_identity_secret()
        project.sealed_identity_secret = box.seal(secret)
        await self.session.flush()
        return secret

    async def delete(self, project: Project) -> None:
        """The project and, through foreign keys, everything it holds. Its insights row is locked first
        and then its vectors in id order, as the embedding writer and a themes store take them: the
        cascades would take them in the order their scans meet them, and deadlock with a writer."""
        require(self.scope, Access.ADMIN)
        self._require_own(project)
        await lock_in_id_order(
            self.session, ProjectInsight.id, [ProjectInsight.project_id == project.id], deleting=True
        )
        await lock_in_id_order(
            self.session, FeedbackEmbedding.id, [FeedbackEmbedding.project_id == project.id], deleting=True
        )
        await forget_news_of_project(self.session, project.id)  # its mail goes with its items
        await self.session.delete(project)
        await self.session.flush()

    def _require_own(self, project: Project) -> None:
        if project.org_id != self.scope.org_id:
            raise Forbidden("this project belongs to another organization")


class ProjectScoped(OrgScoped):
    """Base of the services of one project. They take the request's scope, like every organization
    service, and the project `Projects` found for it; a project of another organization is refused."""

    def __init__(self, session: AsyncSession, scope: OrgScope, project: Project) -> None:
        if project.org_id != scope.org_id:
            raise Forbidden("this project belongs to another organization")
        super().__init__(session, scope)
        self.project = project
